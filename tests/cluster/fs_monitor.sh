#!/usr/bin/env bash
# fs_monitor.sh — the filesystem connector's 'source.monitor-interval': the source is unbounded,
# lists its folder again every interval and reads the files that appeared since (hidden ones,
# '.' and '_', stay out); the job keeps RUNNING. A filesystem sink with checkpoints publishes
# its part files when a checkpoint completes (hidden .part-*.inprogress.* files until then). In
# batch mode such a source is refused with Flink's message.
TEST_NAME=fs_monitor
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"
mkdir -p "$W/in"
printf '1,a\n' > "$W/in/a.csv"
cluster_start

cat > "$W/job.sql" <<SQL
CREATE TABLE src (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$W/in', 'format' = 'csv',
  'source.monitor-interval' = '200 ms');
CREATE TABLE snk (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$W/out', 'format' = 'csv');
SET 'execution.checkpointing.interval' = '300 ms';
SET 'pipeline.name' = 'fs-monitor';
INSERT INTO snk SELECT * FROM src;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name fs-monitor)"
check "the job was submitted" test -n "$jid"
check "it is RUNNING" wait_state "$jid" RUNNING

# published rows: the visible part files
published() { cat "$W"/out/part-* 2>/dev/null | sort | tr '\n' ' '; }
wait_rows() { # wait_rows "<rows>": up to 20 s
  local i
  for ((i = 0; i < 200; i++)); do [[ "$(published)" == "$1" ]] && return 0; sleep 0.1; done
  echo "published: '$(published)', want '$1'" >&2
  return 1
}
check "the file present at the start is read and committed" wait_rows "1,a "

# new files appear (written aside, then moved in, as a producer should); a hidden one is skipped
printf '2,b\n3,c\n' > "$W/b.tmp" && mv "$W/b.tmp" "$W/in/b.csv"
mkdir -p "$W/in/sub" && printf '4,d\n' > "$W/sub.tmp" && mv "$W/sub.tmp" "$W/in/sub/c.csv"
printf '9,h\n' > "$W/in/_hidden.csv"
check "files added later are read" wait_rows "1,a 2,b 3,c 4,d "
check "the job is still RUNNING (unbounded)" wait_state "$jid" RUNNING
printf '5,e\n' > "$W/e.tmp" && mv "$W/e.tmp" "$W/in/e.csv"
check "and keeps picking up new files" wait_rows "1,a 2,b 3,c 4,d 5,e "
api PATCH "/jobs/$jid?mode=cancel" > /dev/null
check "the job is cancelled" wait_state "$jid" CANCELED

# batch mode: an unbounded source is refused
cat > "$W/batch.sql" <<SQL
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE src (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$W/in', 'format' = 'csv',
  'source.monitor-interval' = '1 s');
SELECT * FROM src;
SQL
sql "$W/batch.sql" > "$W/batch.out" 2>&1
check "batch mode refuses the monitored source" \
  grep -q "Querying an unbounded table 'default_catalog.default_database.src' in batch mode is not allowed. The table source is unbounded." "$W/batch.out"
