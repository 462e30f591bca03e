#!/usr/bin/env bash
# install-flink-jdbc.sh — Flink's JDBC driver (org.apache.flink:flink-sql-jdbc-driver-bundle) of the
# release in FLINK_VERSION, for the JDBC client test (tests/gateway/jdbc.sh). Never part of weir.
#
# Usage: scripts/install-flink-jdbc.sh   prints the class path (the driver bundle and slf4j-api, which
#                                        the bundle leaves to the application) on stdout (exit 0),
#                                        or the reason on stderr and exit 77
# Idempotent: the jar is cached in $WEIR_FLINK_CACHE (default ~/.cache/weir)/jdbc/ and reused
# without network. Fetched from Maven Central with Maven (installed by scripts/install-flink.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(tr -d '[:space:]' < "$ROOT/FLINK_VERSION")"
CACHE="${WEIR_FLINK_CACHE:-$HOME/.cache/weir}"
DIR="$CACHE/jdbc"
JAR="$DIR/flink-sql-jdbc-driver-bundle-$VERSION.jar"
SLF4J_VERSION=1.7.36
SLF4J="$DIR/slf4j-api-$SLF4J_VERSION.jar"
log() { echo "install-flink-jdbc: $*" >&2; }

if [[ -s "$JAR" && -s "$SLF4J" ]]; then echo "$JAR:$SLF4J"; exit 0; fi
"$ROOT/scripts/install-flink.sh" > /dev/null || exit 77
command -v mvn >/dev/null 2>&1 || { log "Maven is not installed"; exit 77; }
mkdir -p "$DIR"
log "downloading org.apache.flink:flink-sql-jdbc-driver-bundle:$VERSION"
[[ -s "$JAR" ]] || mvn -q -B -Dstyle.color=never dependency:copy \
    -Dartifact="org.apache.flink:flink-sql-jdbc-driver-bundle:$VERSION" -DoutputDirectory="$DIR" >&2 \
  || { log "cannot download flink-sql-jdbc-driver-bundle $VERSION from Maven Central"; exit 77; }
[[ -s "$JAR" ]] || { log "the download did not produce $JAR"; exit 77; }
mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="org.slf4j:slf4j-api:$SLF4J_VERSION" -DoutputDirectory="$DIR" >&2 \
  || { log "cannot download slf4j-api $SLF4J_VERSION from Maven Central"; exit 77; }
[[ -s "$SLF4J" ]] || { log "the download did not produce $SLF4J"; exit 77; }
echo "$JAR:$SLF4J"
