#!/usr/bin/env bash
# flush.sh — when the jdbc sink writes its buffer, observed in PostgreSQL while an unbounded job
# runs (one job, three sinks fed by the same datagen sequence):
#   fl_t: 'sink.buffer-flush.interval' = '300ms', max-rows 0  -> rows appear while the job runs
#   fl_n: interval 0, max-rows 0                              -> nothing until a checkpoint / the end
#   fl_c: 'sink.buffer-flush.max-rows' = '7', interval 0      -> rows appear in flushes of 7
# The job is then killed (no end of input): fl_n stays empty. A second job with checkpoints every
# 500 ms and no trigger (fl_k) writes its rows at the checkpoints.
TEST_NAME=jdbc/flush
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
pg_start
for t in fl_t fl_n fl_c fl_k; do psql_q "CREATE TABLE $t(a BIGINT)" > /dev/null; done
CONN="'connector' = 'jdbc', 'url' = '$JDBC_URL', 'username' = 'weir', 'password' = 'weir-pw'"
cat > "$PGD/flush.sql" <<SQL
CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.a.kind' = 'sequence',
  'fields.a.start' = '1', 'fields.a.end' = '100000000');
CREATE TABLE fl_t (a BIGINT) WITH ($CONN, 'table-name' = 'fl_t', 'sink.buffer-flush.max-rows' = '0',
  'sink.buffer-flush.interval' = '300ms');
CREATE TABLE fl_n (a BIGINT) WITH ($CONN, 'table-name' = 'fl_n', 'sink.buffer-flush.max-rows' = '0',
  'sink.buffer-flush.interval' = '0');
CREATE TABLE fl_c (a BIGINT) WITH ($CONN, 'table-name' = 'fl_c', 'sink.buffer-flush.max-rows' = '7',
  'sink.buffer-flush.interval' = '0');
BEGIN STATEMENT SET;
INSERT INTO fl_t SELECT a FROM g;
INSERT INTO fl_n SELECT a FROM g;
INSERT INTO fl_c SELECT a FROM g;
END;
SQL
WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$PGD/flush.sql" > "$PGD/client.out" 2>&1 &
job=$!
trap 'rc=$?; kill -KILL $job 2> /dev/null; (exit $rc); pg_cleanup' EXIT INT TERM
n=0
for _ in $(seq 1 120); do
  n="$(psql_q "SELECT count(*) FROM fl_t")"
  [[ "$n" -ge 100 ]] && break
  kill -0 $job 2> /dev/null || break
  sleep 0.5
done
c="$(psql_q "SELECT count(*) FROM fl_c")"
z="$(psql_q "SELECT count(*) FROM fl_n")"
kill -0 $job 2> /dev/null || fail "the job ended early: $(tail -n 20 "$PGD/client.out")"
kill -KILL $job 2> /dev/null
echo "flush: fl_t=$n fl_c=$c fl_n=$z after ${SECONDS}s" >&2
[[ "$n" -ge 100 ]] || fail "interval flush: only $n rows written while the job ran"
[[ "$z" == "0" ]] || fail "no trigger: $z rows written before a checkpoint or the end"
[[ "$c" -gt 0 && $((c % 7)) -eq 0 ]] || fail "max-rows 7: $c rows written (want a positive multiple of 7)"
# --- checkpoints flush the buffer ---
cat > "$PGD/ckpt.sql" <<SQL
SET 'execution.checkpointing.interval' = '500 ms';
SET 'execution.checkpointing.dir' = 'file://$PGD/ckpt';
CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.a.kind' = 'sequence',
  'fields.a.start' = '1', 'fields.a.end' = '100000000');
CREATE TABLE fl_k (a BIGINT) WITH ($CONN, 'table-name' = 'fl_k', 'sink.buffer-flush.max-rows' = '0',
  'sink.buffer-flush.interval' = '0');
INSERT INTO fl_k SELECT a FROM g;
SQL
WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$PGD/ckpt.sql" > "$PGD/client2.out" 2>&1 &
job=$!
k=0
for _ in $(seq 1 120); do
  k="$(psql_q "SELECT count(*) FROM fl_k")"
  [[ "$k" -gt 0 ]] && break
  kill -0 $job 2> /dev/null || break
  sleep 0.5
done
kill -KILL $job 2> /dev/null
[[ "$k" -gt 0 ]] || fail "checkpoints did not flush the buffer: $(tail -n 20 "$PGD/client2.out")"
exit 0
