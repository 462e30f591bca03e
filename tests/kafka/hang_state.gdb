# hang_state.gdb — what a hung job's lanes and checkpoint coordinator hold (tests/kafka/lib.sh's
# watchdog runs it after the threads' stacks): each lane's checkpoint alignment, sources and inbox.
set pagination off
set print pretty off
thread 1
frame function wjob_run
printf "job: lanes=%d exchanges=%d ck_seen=%ld exhausted=%d stop_at_end=%d\n", j->nlanes, j->nexch, j->ck_seen, j->nexhausted, j->stop_at_end
printf "coordinator: last_id=%ld pending=%ld completed=%ld acks=%d finishing=%d lane_ended=%d failed=%d interval_ms=%ld\n", j->ck->last_id, j->ck->pending, j->ck->completed, j->ck->acks, j->ck->finishing, j->ck->lane_ended, j->ck->failed, j->ck->interval_ms
set $i = 0
while $i < j->nlanes
  printf "lane %d: ck_id=%ld ck_done=%ld stop_wait=%ld woken=%d head=%p nsrc=%d ck_committed=%ld\n", $i, j->lanes[$i].ck_id, j->lanes[$i].ck_done, j->lanes[$i].stop_wait, j->lanes[$i].woken, j->lanes[$i].head, j->lanes[$i].nsrc, j->lanes[$i].ck_committed
  set $s = 0
  while $s < j->lanes[$i].nsrc
    printf "  src %d done=%d pending=%d\n", $s, j->lanes[$i].srcs[$s].done, j->lanes[$i].srcs[$s].pending
    set $s = $s + 1
  end
  set $x = 0
  while $x < j->nexch
    printf "  exch %d sent=%d", $x, j->lanes[$i].ck_sent[$x]
    if j->lanes[$i].recv[$x]
      set $f = 0
      while $f < j->lanes[$i].recv[$x]->nfrom
        printf " [from %d barrier=%d ended=%d]", $f, j->lanes[$i].recv[$x]->barrier[$f], j->lanes[$i].recv[$x]->ended[$f]
        set $f = $f + 1
      end
    end
    printf "\n"
    set $x = $x + 1
  end
  set $i = $i + 1
end
