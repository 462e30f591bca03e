#!/usr/bin/env bash
# Source offsets committed to the consumer group on checkpoint completion (Flink's KafkaSource
# commits on notifyCheckpointComplete; 'properties.commit.offsets.on.checkpoint' true by default):
# an unbounded checkpointed job reads a 2-partition topic with 'properties.group.id' = 'g1';
# kafka-consumer-groups --describe then shows g1's committed offsets (the end of each partition),
# as it does for Flink 2.3 with the Kafka connector 4.0.1 on the same job (measured). After more
# records, a bounded job with scan.startup.mode = group-offsets reads only the new ones, and commits
# nothing at its end (Flink's finished reader is not notified of the final checkpoint: measured,
# a bounded Flink job leaves no offsets). With 'properties.commit.offsets.on.checkpoint' = 'false'
# (group g2) nothing is committed.
TEST_NAME=kafka/group_offsets
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic go:2 go_out_g1:1 go_out_g2:1
printf '1,a\n2,b\n3,c\n' | kafka_produce go 0
printf '4,d\n5,e\n' | kafka_produce go 1

job() { # $1 group, $2 startup mode, $3 extra WITH options (bounded: scan.bounded.mode)
  cat <<SQL
SET 'table.dml-sync' = 'true';
SET 'execution.checkpointing.interval' = '200 ms';
SET 'execution.checkpointing.dir' = 'file://$KTMP/ck-$1';
CREATE TABLE go (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'go',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'properties.group.id' = '$1', 'scan.startup.mode' = '$2',
  'format' = 'csv'$3);
CREATE TABLE out_t (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'go_out_$1',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');
INSERT INTO out_t SELECT * FROM go;
SQL
}

describe() { # group: "partition current-offset" pairs
  "${KJAVA[@]}" -XX:TieredStopAtLevel=1 org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
    --bootstrap-server "$BOOTSTRAP" --describe --group "$1" 2> "$KTMP/describe-$1.err" \
    | awk '$2 == "go" { print $3, $4 }' | sort | tr '\n' ' '
}
copied() { kcat -b "$BOOTSTRAP" -C -t "go_out_$1" -o beginning -e -q -f '%s\n' | grep -c . ; }

# run <group> <extra options> <wait for>: an unbounded job, killed once <wait for> holds
run() {
  job "$1" earliest-offset "$2" > "$KTMP/$1.sql"
  WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$KTMP/$1.sql" > "$KTMP/$1.out" 2>&1 &
  local pid=$! _
  for _ in $(seq 1 60); do eval "$3" && break; kill -0 $pid 2> /dev/null || break; sleep 0.5; done
  kill -0 $pid 2> /dev/null || { cat "$KTMP/$1.out"; fail "$1: the job ended"; }
  kill -KILL $pid; wait $pid 2> /dev/null
}

run g1 "" '[[ "$(describe g1)" == "0 3 1 2 " ]]'
got="$(describe g1)"
[[ "$got" == "0 3 1 2 " ]] || { cat "$KTMP/describe-g1.err"; fail "group g1 committed offsets: '$got' (want partition 0 at 3, 1 at 2)"; }

printf '6,f\n' | kafka_produce go 0
printf '7,g\n' | kafka_produce go 1
job g1 group-offsets ", 'scan.bounded.mode' = 'latest-offset'" > "$KTMP/run2.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run2.sql" > "$KTMP/run2.out" 2>&1 || { cat "$KTMP/run2.out"; fail "group-offsets run failed"; }
got="$(kcat -b "$BOOTSTRAP" -C -t go_out_g1 -o beginning -e -q -f '%s\n' | sort | tr '\n' ' ')"
[[ "$got" == "1,a 2,b 3,c 4,d 5,e 6,f 7,g " ]] || fail "group-offsets run: the copies are '$got' (want 1..5 once from the first run, 6 and 7 from the second)"
got="$(describe g1)"
[[ "$got" == "0 3 1 2 " ]] || fail "group g1 after the bounded run: '$got' (a finished bounded read commits nothing, as in Flink)"

run g2 ", 'properties.commit.offsets.on.checkpoint' = 'false'" '[[ "$(copied g2)" -ge 7 ]] && sleep 2'
[[ "$(copied g2)" -eq 7 ]] || fail "run without commits: $(copied g2) records copied, want 7"
got="$(describe g2)"
[[ -z "$got" ]] || fail "group g2 (commit.offsets.on.checkpoint false) has committed offsets: '$got'"
exit 0
