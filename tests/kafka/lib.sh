#!/usr/bin/env bash
# lib.sh — helpers for the Kafka tests (sourced, not run).
#
# A test sets TEST_NAME, sources this file and calls kafka_start: one Apache Kafka server in KRaft
# mode (broker and controller in one JVM, the jars scripts/install-kafka.sh caches) listening on two
# free 127.0.0.1 ports, with a throw-away log dir under a private /tmp/kafka-* folder. kafka_start
# waits until the broker answers metadata requests; BOOTSTRAP is then "127.0.0.1:<port>".
# kafka_topic NAME:PARTITIONS... creates topics; kafka_produce / kafka_consume move records with kcat.
# Cleanup (every exit) stops the server (TERM, then KILL) and removes the folder.
# Exit status of a test: 0 pass, 1 fail, 77 skipped (Java, kcat or the Kafka jars missing).
#   WEIR  the weir binary (default: $BUILD/weir, else build/weir)

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
WEIR="${WEIR:-${BUILD:+$BUILD/weir}}"
WEIR="${WEIR:-$ROOT/build/weir}"
FAILS=0
KTMP=""
KPID=""
BOOTSTRAP=""

fail() { echo "FAIL $TEST_NAME: $*"; FAILS=$((FAILS + 1)); }

# watchdog SECS OUT CMD...: run CMD with its stdout and stderr to the file OUT (its exit status);
# when it still runs after SECS, the stacks of its threads (gdb, where installed) go to stderr before
# it is killed (status 124), so a job that hangs on a loaded machine shows where it waits. CMD is
# exec'd (use env VAR=... for variables). WATCHDOG_GDB: a gdb command file run after the stacks
# (default: hang_state.gdb here, the job's lanes and checkpoint coordinator).
watchdog() {
  local secs="$1" out="$2" pid t=0 st gdbx="${WATCHDOG_GDB:-$ROOT/tests/kafka/hang_state.gdb}"
  shift 2
  "$@" > "$out" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2> /dev/null; do
    if (( t >= secs * 10 )); then
      echo "watchdog: '$*' still runs after ${secs}s; its threads:" >&2
      if command -v gdb > /dev/null 2>&1; then
        # weir's own frames (the library threads only poll), then the job's state
        timeout 60 gdb -p "$pid" -batch -ex 'thread apply all bt' -x "$gdbx" 2>&1 \
          | awk '/^Thread / { keep = /"weir"/; if (keep) print; next }
                 /^#/ { if (keep && / at src\//) print; next }
                 !/^\[|^$|^(Reading|Downloading|warning:)/' >&2
      fi
      kill -KILL "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      return 124
    fi
    sleep 0.1
    t=$((t + 1))
  done
  wait "$pid"
  st=$?
  return $st
}
skip() { echo "SKIP $TEST_NAME: $*"; exit 77; }

kafka_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n "$KPID" ]] && kill -0 "$KPID" 2>/dev/null; then
    kill -TERM "$KPID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$KPID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$KPID" 2>/dev/null
  fi
  [[ -n "$KTMP" && -d "$KTMP" ]] && rm -rf "$KTMP"
  if [[ $rc -eq 0 && $FAILS -gt 0 ]]; then rc=1; fi
  exit $rc
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

kafka_start() {
  [[ -x "$WEIR" ]] || skip "no weir binary at $WEIR"
  command -v java > /dev/null || skip "java is missing (scripts/install-flink.sh installs it)"
  command -v kcat > /dev/null || skip "kcat is missing (scripts/install-deps.sh installs it)"
  KHOME="$("$ROOT/scripts/install-kafka.sh" 2>/dev/null)" || skip "the Kafka server jars cannot be installed (scripts/install-kafka.sh)"
  KTMP="$(mktemp -d /tmp/kafka-test-XXXXXX)"
  trap kafka_cleanup EXIT INT TERM
  local bport cport
  bport="$(free_port)"; cport="$(free_port)"
  while [[ "$cport" == "$bport" ]]; do cport="$(free_port)"; done
  BOOTSTRAP="127.0.0.1:$bport"
  cat > "$KTMP/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$bport,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$bport
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KTMP/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  cat > "$KTMP/log4j2.properties" <<'LOG'
rootLogger.level=WARN
rootLogger.appenderRef.f.ref=F
appender.f.type=File
appender.f.name=F
appender.f.fileName=${sys:kafka.logs.dir}/server.log
appender.f.layout.type=PatternLayout
appender.f.layout.pattern=%d %p %c %m%n
LOG
  KJAVA=(java -Xms256m -Xmx512m -XX:+UseSerialGC -Dkafka.logs.dir="$KTMP"
         -Dlog4j2.configurationFile="$KTMP/log4j2.properties" -cp "$KHOME/libs/*")
  local uuid
  # a cluster id starting with '-' would be read as an option by the storage tool: draw again
  uuid="$(python3 -c 'import base64,os
while True:
    u = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
    if not u.startswith("-"): break
print(u)')"
  "${KJAVA[@]}" kafka.tools.StorageTool format -t "$uuid" -c "$KTMP/server.properties" > "$KTMP/format.log" 2>&1 \
    || { cat "$KTMP/format.log"; fail "kafka storage format failed"; exit 1; }
  "${KJAVA[@]}" kafka.Kafka "$KTMP/server.properties" > "$KTMP/stdout.log" 2>&1 &
  KPID=$!
  for _ in $(seq 1 120); do
    if kcat -b "$BOOTSTRAP" -L -m 2 > /dev/null 2>&1; then return 0; fi
    kill -0 "$KPID" 2>/dev/null || break
    sleep 0.5
  done
  tail -n 30 "$KTMP/stdout.log" "$KTMP/server.log" 2>/dev/null
  fail "the Kafka server did not start"; exit 1
}

# kafka_topic NAME:PARTITIONS... : creates the topics (one short-lived JVM each, in parallel)
kafka_topic() {
  local pids=() names=() spec
  for spec in "$@"; do
    "${KJAVA[@]}" -XX:TieredStopAtLevel=1 org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" \
      --create --topic "${spec%%:*}" --partitions "${spec##*:}" --replication-factor 1 > "$KTMP/topic-${spec%%:*}.log" 2>&1 &
    pids+=($!); names+=("${spec%%:*}")
  done
  local i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { cat "$KTMP/topic-${names[$i]}.log"; fail "cannot create topic ${names[$i]}"; exit 1; }
  done
}

# kafka_produce TOPIC PARTITION < lines   (one record per line; with KEYDELIM set, "key<delim>value")
kafka_produce() {
  local args=(-b "$BOOTSTRAP" -P -t "$1" -p "$2" -z none)
  [[ -n "${KEYDELIM:-}" ]] && args+=(-K "$KEYDELIM")
  kcat "${args[@]}" || { fail "kcat produce to $1/$2 failed"; exit 1; }
}

# kafka_consume TOPIC [kcat format] : every record of the topic (all partitions) until the end
kafka_consume() {
  kcat -b "$BOOTSTRAP" -C -t "$1" -o beginning -e -q -f "${2:-%s\n}" -X isolation.level=read_committed
}
