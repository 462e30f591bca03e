#!/usr/bin/env bash
# Partition discovery ('scan.topic-partition-discovery.interval'): an unbounded job copies topic pd
# (1 partition) to topic pd_out; while it runs the topic grows to 3 partitions and records go to the
# new ones; with a 500 ms interval the job reads them (from their earliest offset), with the
# interval set to 0 it does not.
TEST_NAME=kafka/partition_discovery
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic pd:1 pd_out:1 pd0:1 pd0_out:1

job() { # $1 topic, $2 interval
  cat <<SQL
CREATE TABLE src (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = '$1',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'scan.startup.mode' = 'earliest-offset',
  'scan.topic-partition-discovery.interval' = '$2', 'format' = 'csv');
CREATE TABLE dst (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = '${1}_out',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv', 'sink.delivery-guarantee' = 'none');
INSERT INTO dst SELECT * FROM src;
SQL
}

out_count() { kcat -b "$BOOTSTRAP" -C -t "$1" -o beginning -e -q -f '%s\n' | grep -c . ; }

alter() { # topic partitions
  "${KJAVA[@]}" -XX:TieredStopAtLevel=1 org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" \
    --alter --topic "$1" --partitions "$2" > "$KTMP/alter-$1.log" 2>&1 || { cat "$KTMP/alter-$1.log"; fail "cannot add partitions to $1"; }
}

for t in pd pd0; do
  iv=500ms; [[ $t == pd0 ]] && iv=0
  printf '1,a\n2,b\n' | kafka_produce $t 0
  job $t $iv > "$KTMP/$t.sql"
  WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$KTMP/$t.sql" > "$KTMP/$t.out" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do [[ "$(out_count ${t}_out)" -ge 2 ]] && break; kill -0 $pid 2> /dev/null || break; sleep 0.1; done
  [[ "$(out_count ${t}_out)" -eq 2 ]] || { cat "$KTMP/$t.out"; fail "$t: the first records were not copied"; }
  alter $t 3
  printf '3,c\n' | kafka_produce $t 1
  printf '4,d\n5,e\n' | kafka_produce $t 2
  printf '6,f\n' | kafka_produce $t 0
  want=6; [[ $t == pd0 ]] && want=3
  for _ in $(seq 1 100); do [[ "$(out_count ${t}_out)" -ge 6 ]] && break; kill -0 $pid 2> /dev/null || break; sleep 0.1; done
  [[ $t == pd0 ]] && sleep 2      # give a (wrong) discovery time to happen
  kill -0 $pid 2> /dev/null || { cat "$KTMP/$t.out"; fail "$t: the job ended"; }
  kill -KILL $pid; wait $pid 2> /dev/null
  got="$(out_count ${t}_out)"
  [[ "$got" -eq $want ]] || fail "$t (interval $iv): $got records copied, want $want"
done
exit 0
