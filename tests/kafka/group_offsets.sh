#!/usr/bin/env bash
# Source offsets committed to the consumer group on checkpoint completion (Flink's KafkaSource
# commits on notifyCheckpointComplete; 'properties.commit.offsets.on.checkpoint' true by default):
# a checkpointed job reads a 2-partition topic to its end with 'properties.group.id' = 'g1';
# kafka-consumer-groups --describe then shows g1's committed offsets (the end of each partition);
# after more records, a job with scan.startup.mode = group-offsets reads only the new ones. With
# 'properties.commit.offsets.on.checkpoint' = 'false' (group g2) nothing is committed.
TEST_NAME=kafka/group_offsets
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic go:2
printf '1,a\n2,b\n3,c\n' | kafka_produce go 0
printf '4,d\n5,e\n' | kafka_produce go 1

job() { # $1 group, $2 startup mode, $3 extra WITH options
  cat <<SQL
SET 'table.dml-sync' = 'true';
SET 'execution.checkpointing.interval' = '200 ms';
SET 'execution.checkpointing.dir' = 'file://$KTMP/ck-$1';
CREATE TABLE go (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'go',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'properties.group.id' = '$1', 'scan.startup.mode' = '$2',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'csv'$3);
CREATE TABLE out_t (id INT, s STRING) WITH ('connector' = 'print');
INSERT INTO out_t SELECT * FROM go;
SQL
}

describe() { # group: "partition current-offset" lines, sorted
  "${KJAVA[@]}" -XX:TieredStopAtLevel=1 org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
    --bootstrap-server "$BOOTSTRAP" --describe --group "$1" 2> "$KTMP/describe-$1.err" \
    | awk '$2 == "go" { print $3, $4 }' | sort
}

job g1 earliest-offset "" > "$KTMP/run1.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run1.sql" > "$KTMP/run1.out" 2>&1 || { cat "$KTMP/run1.out"; fail "first run failed"; }
[[ "$(grep -c '^+I' "$KTMP/run1.out")" -eq 5 ]] || { cat "$KTMP/run1.out"; fail "first run: want 5 rows"; }
got="$(describe g1 | tr '\n' ' ')"
[[ "$got" == "0 3 1 2 " ]] || { cat "$KTMP/describe-g1.err"; fail "group g1 committed offsets: '$got' (want partition 0 at 3, 1 at 2)"; }

printf '6,f\n' | kafka_produce go 0
printf '7,g\n' | kafka_produce go 1
job g1 group-offsets "" > "$KTMP/run2.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run2.sql" > "$KTMP/run2.out" 2>&1 || { cat "$KTMP/run2.out"; fail "group-offsets run failed"; }
got="$(grep '^+I' "$KTMP/run2.out" | sort | tr '\n' ' ')"
[[ "$got" == "+I[6, f] +I[7, g] " ]] || { cat "$KTMP/run2.out"; fail "group-offsets run read: $got"; }
got="$(describe g1 | tr '\n' ' ')"
[[ "$got" == "0 4 1 3 " ]] || fail "group g1 after the second run: '$got' (want partition 0 at 4, 1 at 3)"

job g2 earliest-offset ", 'properties.commit.offsets.on.checkpoint' = 'false'" > "$KTMP/run3.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run3.sql" > "$KTMP/run3.out" 2>&1 || { cat "$KTMP/run3.out"; fail "run without commits failed"; }
[[ "$(grep -c '^+I' "$KTMP/run3.out")" -eq 7 ]] || { cat "$KTMP/run3.out"; fail "run without commits: want 7 rows"; }
got="$(describe g2 | tr '\n' ' ')"
[[ -z "$got" ]] || fail "group g2 (commit.offsets.on.checkpoint false) has committed offsets: '$got'"
exit 0
