#!/usr/bin/env bash
# upsert-kafka -> aggregation -> jdbc upsert, against a real Kafka broker and a real PostgreSQL.
# 3000 keyed records (key: csv "id"; value: json without the key, value.fields-include EXCEPT_KEY) on
# 300 keys of a 4-partition topic, kcat's partitioner keeping each key in one partition; about one in
# eight records is a tombstone (null value): of a live key, of a deleted key, of a key never seen.
# Every key of name 'gone' ends deleted. weir reads the topic (scan.bounded.mode latest-offset, two
# subtasks), ChangelogNormalize turns the upserts into a full changelog, GROUP BY name aggregates it,
# and the jdbc sink (PRIMARY KEY name) upserts and deletes rows of a PostgreSQL table. The final
# table must equal the batch computation: the last value of every live key, grouped by name
# ('gone' absent). The plan has ChangelogNormalize where Flink 2.3 puts it. (Flink 2.3 with its
# Kafka and JDBC connectors, run on the same records into PostgreSQL, wrote the same table.)
TEST_NAME=kafka/upsert_kafka
DIR="$(dirname "${BASH_SOURCE[0]}")"
source "$DIR/lib.sh"
source "$DIR/../jdbc/lib.sh"
# one cleanup for both servers, whichever start installed its trap last
eval "orig_kafka_cleanup() $(declare -f kafka_cleanup | tail -n +2)"
eval "orig_pg_cleanup() $(declare -f pg_cleanup | tail -n +2)"
cleanup_all() {
  local rc=$?
  trap - EXIT INT TERM
  (orig_kafka_cleanup) > /dev/null 2>&1
  (orig_pg_cleanup) > /dev/null 2>&1
  if [[ $rc -eq 0 && $FAILS -gt 0 ]]; then rc=1; fi
  exit $rc
}
kafka_cleanup() { cleanup_all; }
pg_cleanup() { cleanup_all; }
command -v python3 > /dev/null || skip "python3 is missing"
kafka_start
pg_start
kafka_topic u_src:4

python3 - "$KTMP" <<'PY'
import random, sys
d = sys.argv[1]
rnd = random.Random(17)
names = ["n0", "n1", "n2", "n3", "n4", "gone"]
state = {}
with open(d + "/records.txt", "w") as f:
    for i in range(3000):
        k = rnd.randrange(300)
        if rnd.random() < 0.12:
            t = k if rnd.random() < 0.8 else 1000 + k     # a tombstone (of a key never seen: 1000+)
            f.write("%d|\n" % t)
            state.pop(t, None)
            continue
        name = names[rnd.randrange(6)]
        amount = rnd.randrange(-50, 1000)
        f.write('%d|{"name":"%s","amount":%d}\n' % (k, name, amount))
        state[k] = (name, amount)
    for k in sorted(state):                       # every 'gone' key ends deleted
        if state[k][0] == "gone":
            f.write("%d|\n" % k)
    for k in [k for k in state if state[k][0] == "gone"]:
        del state[k]
agg = {}
for name, amount in state.values():
    s, c = agg.get(name, (0, 0))
    agg[name] = (s + amount, c + 1)
with open(d + "/expected.txt", "w") as f:
    for name in sorted(agg):
        f.write("%s|%d|%d\n" % (name, agg[name][0], agg[name][1]))
PY
kcat -b "$BOOTSTRAP" -P -t u_src -K '|' -Z -z none < "$KTMP/records.txt" || { fail "kcat produce failed"; exit 1; }
[[ "$(kafka_consume u_src '%p\n' | sort -u | wc -l)" -ge 3 ]] || fail "the records did not spread over the partitions"
[[ "$(kafka_consume u_src '%S\n' | grep -c '^-1$')" -gt 300 ]] || fail "too few tombstones (null values) in the topic"

psql_q "CREATE TABLE agg (name VARCHAR PRIMARY KEY, total BIGINT, cnt BIGINT)" > /dev/null
cat > "$KTMP/pipeline.sql" <<SQL
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '2';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE src (id INT, name STRING, amount BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = 'u_src', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'key.format' = 'csv', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY',
  'scan.bounded.mode' = 'latest-offset');
CREATE TABLE agg (name STRING, total BIGINT, cnt BIGINT, PRIMARY KEY (name) NOT ENFORCED) WITH (
  'connector' = 'jdbc', 'url' = '$JDBC_URL', 'table-name' = 'agg', 'username' = 'weir', 'password' = 'weir-pw');
EXPLAIN INSERT INTO agg SELECT name, SUM(amount), COUNT(*) FROM src GROUP BY name;
INSERT INTO agg SELECT name, SUM(amount), COUNT(*) FROM src GROUP BY name;
SQL
WEIR_EMBEDDED=1 timeout 180 "$WEIR" sql-client -f "$KTMP/pipeline.sql" > "$KTMP/pipeline.out" 2>&1 \
  || { tail -n 30 "$KTMP/pipeline.out"; fail "the pipeline failed"; }
# Flink 2.3's optimized plan of this INSERT (recorded with Flink and its Kafka connector)
cat > "$KTMP/plan.want" <<'PLAN'
Sink(table=[default_catalog.default_database.agg], fields=[name, EXPR$1, EXPR$2])
+- GroupAggregate(groupBy=[name], select=[name, SUM_RETRACT(amount) AS EXPR$1, COUNT_RETRACT(*) AS EXPR$2])
   +- Exchange(distribution=[hash[name]])
      +- Calc(select=[name, amount])
         +- ChangelogNormalize(key=[id])
            +- Exchange(distribution=[hash[id]])
               +- TableSourceScan(table=[[default_catalog, default_database, src]], fields=[id, name, amount])
PLAN
awk '/== Optimized Physical Plan ==/{on=1; next} /== Optimized Execution Plan ==/{on=0} on && NF' "$KTMP/pipeline.out" \
  > "$KTMP/plan.got"
diff "$KTMP/plan.want" "$KTMP/plan.got" > /dev/null || { diff "$KTMP/plan.want" "$KTMP/plan.got"; fail "plan differs from Flink's"; }
psql_q "SELECT name, total, cnt FROM agg ORDER BY name" > "$KTMP/got.txt"
if ! diff "$KTMP/expected.txt" "$KTMP/got.txt" > "$KTMP/diff.txt"; then
  cat "$KTMP/diff.txt"; fail "the PostgreSQL table differs from the batch computation"
fi
[[ "$(wc -l < "$KTMP/got.txt")" -eq 5 ]] || fail "want 5 groups ('gone' deleted), got $(wc -l < "$KTMP/got.txt")"
exit 0
