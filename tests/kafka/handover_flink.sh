#!/usr/bin/env bash
# A job moves from weir to Flink at its source positions (docs/scale-out.md, "State that moves"):
# a weir cluster daemon runs an unbounded Kafka copy job (2-partition topic, consumer group
# 'handover', no periodic checkpoints) while a producer keeps writing; the user stops it with
# STOP JOB ... WITH SAVEPOINT, whose completion commits the read offsets to the group (as Flink's
# KafkaSource commits on notifyCheckpointComplete). The producer goes on; then real Flink (2.3 with
# its Kafka connector) runs the same table with scan.startup.mode = group-offsets to the end of the
# topic. Every input record is in weir's output or Flink's, exactly once, and Flink read some.
TEST_NAME=kafka/handover_flink
source "$(dirname "$0")/lib.sh"
T0=$SECONDS
say() { [[ -n "${VERBOSE:-}" ]] && echo "[$((SECONDS - T0)) s] $*"; return 0; }
kafka_start
FLINKCTL=(python3 "$ROOT/tests/flink/flinkctl.py")
JAR="$KHOME/flink/flink-sql-connector-kafka-4.0.1-2.0.jar"
[[ -f "$JAR" ]] || skip "Flink's Kafka connector jar is missing ($JAR: scripts/install-kafka.sh downloads it)"
FRUN="$KTMP/flink" WCONF="$KTMP/weir-conf" WLOG="$KTMP/weir-log"
PRODUCER=""
handover_cleanup() {
  [[ -n "$PRODUCER" ]] && kill "$PRODUCER" 2> /dev/null
  [[ -f "$WLOG/weir-cluster.pid" ]] && WEIR_CONF_DIR="$WCONF" WEIR_LOG_DIR="$WLOG" timeout 40 "$WEIR" cluster stop > /dev/null 2>&1
  if [[ -f "$WLOG/weir-cluster.log" ]] &&
     grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$WLOG/weir-cluster.log"; then
    echo "FAIL $TEST_NAME: the daemon's log shows a sanitizer report:"
    grep -A 30 -E "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$WLOG/weir-cluster.log" | head -60
    FAILS=$((FAILS + 1))
  fi
  [[ -f "$FRUN/flink.json" ]] && "${FLINKCTL[@]}" stop --run-dir "$FRUN" > /dev/null 2>&1
  kafka_cleanup
}
trap handover_cleanup EXIT INT TERM
kafka_topic ho:2 ho_weir:1 ho_flink:1
say "topics created"

# Flink starts while weir works (it takes a while on a loaded machine)
"${FLINKCTL[@]}" start --run-dir "$FRUN" > "$KTMP/flink-start.log" 2>&1 &
FSTART=$!

# records 1, 2, ..., dealt to the two partitions in turn, 40 at a time every 0.2 s, until weir
# has been stopped (the file "stopped"), then 10 batches more; the last number goes to "produced"
(
  i=1 tail=10
  while [[ $tail -gt 0 ]]; do
    for p in 0 1; do
      seq "$i" $((i + 39)) | awk -v p="$p" '$1 % 2 == p { print $1 ",r" $1 }' | kafka_produce ho "$p"
    done
    i=$((i + 40))
    [[ -f "$KTMP/stopped" ]] && tail=$((tail - 1))
    sleep 0.2
  done
  echo $((i - 1)) > "$KTMP/produced"
) &
PRODUCER=$!

table() { # the input table: $1 startup mode, $2 extra options
  echo "CREATE TABLE ho (id BIGINT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'ho',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'properties.group.id' = 'handover',
  'scan.startup.mode' = '$1', 'format' = 'csv'$2);"
}
mkdir -p "$WCONF" "$WLOG"
cat > "$WCONF/config.yaml" <<YAML
rest:
  address: 127.0.0.1
  bind-address: 127.0.0.1
  port: 0
sql-gateway.endpoint.rest.port: 0
parallelism.default: 2
execution.checkpointing.savepoint-dir: file://$KTMP/savepoints
YAML
export WEIR_CONF_DIR="$WCONF" WEIR_LOG_DIR="$WLOG"
unset WEIR_EMBEDDED
"$WEIR" cluster start > "$KTMP/weir-start.out" 2>&1 || { cat "$KTMP/weir-start.out"; fail "the weir cluster did not start"; exit 1; }
read -r _ WPORT < "$WLOG/weir-cluster.rest"
{
  table earliest-offset ""
  echo "CREATE TABLE out_t (id BIGINT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'ho_weir',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');"
  echo "SET 'pipeline.name' = 'handover';"
  echo "INSERT INTO out_t SELECT * FROM ho;"
} > "$KTMP/weir.sql"
timeout 120 "$WEIR" sql-client -f "$KTMP/weir.sql" < /dev/null > "$KTMP/weir.out" 2>&1 || { cat "$KTMP/weir.out"; fail "weir: the job was not submitted"; exit 1; }
jid="$(curl -s "http://127.0.0.1:$WPORT/jobs/overview" | jq -r '[.jobs[] | select(.name == "handover")][0].jid // empty')"
[[ -n "$jid" ]] || { cat "$KTMP/weir.out"; fail "weir: no job named handover"; exit 1; }
say "weir job $jid running"

# stop it while the producer is still writing, once weir has copied 800 records
copied() { kcat -b "$BOOTSTRAP" -C -t "$1" -o beginning -e -q -f '%s\n' 2> /dev/null | grep -c . ; }
for t in $(seq 1 480); do
  c="$(kcat -b "$BOOTSTRAP" -C -t ho_weir -o beginning -e -q -c 800 -f '%s\n' 2> /dev/null | grep -c .)"
  [[ $((t % 20)) -eq 0 ]] && say "weir has copied $c"
  [[ "$c" -ge 800 ]] && break
  sleep 0.25
done
echo "STOP JOB '$jid' WITH SAVEPOINT;" > "$KTMP/stop.sql"
timeout 120 "$WEIR" sql-client -f "$KTMP/stop.sql" < /dev/null > "$KTMP/stop.out" 2>&1
grep -q "savepoint" "$KTMP/stop.out" && ! grep -q '\[ERROR\]' "$KTMP/stop.out" \
  || { cat "$KTMP/stop.out"; fail "STOP JOB WITH SAVEPOINT failed"; exit 1; }
touch "$KTMP/stopped"
wait "$PRODUCER"; PRODUCER=""
N="$(cat "$KTMP/produced")"
weir_n="$(copied ho_weir)"
say "weir stopped after $weir_n records"

# Flink continues from the group's offsets to the end of the topic
wait "$FSTART" || {
  st=$?; [[ $st -eq 77 ]] && skip "Flink cannot be installed here: $(tail -n 2 "$KTMP/flink-start.log")"
  tail -n 5 "$KTMP/flink-start.log"; fail "the Flink cluster did not start"; exit 1; }
{
  echo "ADD JAR '$JAR';"
  echo "SET 'table.dml-sync' = 'true';"
  table group-offsets ", 'scan.bounded.mode' = 'latest-offset'"
  echo "CREATE TABLE out_t (id BIGINT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'ho_flink',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');"
  echo "INSERT INTO out_t SELECT * FROM ho;"
} > "$KTMP/flink.sql"
"${FLINKCTL[@]}" sql --run-dir "$FRUN" -f "$KTMP/flink.sql" > "$KTMP/flink.out" 2>&1
sed -i 's/\x1b\[[0-9;]*m//g' "$KTMP/flink.out"
grep -q '\[ERROR\]' "$KTMP/flink.out" && { grep -A 8 '\[ERROR\]' "$KTMP/flink.out"; fail "Flink's job failed"; exit 1; }
flink_n="$(copied ho_flink)"
say "Flink copied $flink_n"
[[ "$flink_n" -gt 0 ]] || { echo "--- Flink's transcript"; tail -n 30 "$KTMP/flink.out"; }

both="$( { kafka_consume ho_weir; kafka_consume ho_flink; } | LC_ALL=C sort | uniq -c | awk '$1 != 1 { print $2 }' | head -5)"
[[ -z "$both" ]] || fail "records copied by both engines (read twice): $both"
missing="$(comm -23 <(seq 1 "$N" | awk '{ print $1 ",r" $1 }' | LC_ALL=C sort) \
                    <( { kafka_consume ho_weir; kafka_consume ho_flink; } | LC_ALL=C sort -u) | head -5)"
[[ -z "$missing" ]] || fail "records neither engine copied (lost): $missing"
[[ "$weir_n" -gt 0 && "$flink_n" -gt 0 ]] || fail "weir copied $weir_n and Flink $flink_n records: both should have copied some"
echo "handover: weir copied $weir_n, Flink $flink_n of $N records"
exit 0
