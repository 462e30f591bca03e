#!/usr/bin/env bash
# install-kafka.sh — installs the Apache Kafka server jars (KRaft broker+controller) the Kafka tests
# run, and Flink's Kafka SQL connector jar for the Flink oracle runs. Neither is part of weir itself.
#
# Usage: scripts/install-kafka.sh            prints the install dir on stdout (exit 0): libs/ holds the
#                                            server's class path, flink/ the Flink connector jar; or the
#                                            reason on stderr and exit 77 when nothing can be downloaded
# Idempotent: a complete installation (marker .weir-complete) is reused without any network.
#
# Where things come from: Maven Central's org.apache.kafka:kafka_2.13 and its runtime dependencies
# (`mvn dependency:copy-dependencies` on a generated pom), and org.apache.flink:flink-sql-connector-kafka.
# The JDK is the one scripts/install-flink.sh installs. Goes to $WEIR_FLINK_CACHE (~/.cache/weir)/kafka-<ver>.
set -euo pipefail

KAFKA_VERSION="${WEIR_KAFKA_VERSION:-4.1.0}"
FLINK_KAFKA_VERSION="${WEIR_FLINK_KAFKA_VERSION:-4.0.1-2.0}"
CACHE="${WEIR_FLINK_CACHE:-$HOME/.cache/weir}"
DIR="$CACHE/kafka-$KAFKA_VERSION"
log() { echo "install-kafka: $*" >&2; }

if [[ -f "$DIR/.weir-complete" ]] && command -v java >/dev/null 2>&1; then
  echo "$DIR"; exit 0
fi
command -v java >/dev/null 2>&1 || { log "no java: run scripts/install-flink.sh first"; exit 77; }
if ! command -v mvn >/dev/null 2>&1; then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y --no-install-recommends maven >/dev/null 2>&1 \
    || { $SUDO apt-get update -qq >/dev/null 2>&1 || true; $SUDO apt-get install -y --no-install-recommends maven >/dev/null; } \
    || { log "cannot install maven"; exit 77; }
fi

mkdir -p "$CACHE"
# One installer at a time (make test, benchmarks and helpers' checkouts may start together).
exec 9>"$CACHE/.install-kafka.lock"
flock 9
if [[ -f "$DIR/.weir-complete" ]]; then echo "$DIR"; exit 0; fi
tmp="$(mktemp -d "$CACHE/.kafka-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>weir.test</groupId><artifactId>kafka-server</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId><version>2.24.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.24.3</version></dependency>
  </dependencies>
</project>
POM
log "fetching kafka_2.13:$KAFKA_VERSION and its runtime dependencies"
if ! (cd "$tmp" && mvn -q -B -Dstyle.color=never dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$tmp/libs" >&2); then
  log "cannot download the Kafka server jars"; exit 77
fi
mkdir -p "$tmp/flink"
if ! mvn -q -B -Dstyle.color=never dependency:copy \
      -Dartifact="org.apache.flink:flink-sql-connector-kafka:$FLINK_KAFKA_VERSION" \
      -DoutputDirectory="$tmp/flink" >&2; then
  log "cannot download flink-sql-connector-kafka:$FLINK_KAFKA_VERSION (the Flink oracle runs will skip)"
fi
rm -rf "$DIR"
mkdir -p "$DIR"
mv "$tmp/libs" "$tmp/flink" "$DIR/"
touch "$DIR/.weir-complete"
echo "$DIR"
