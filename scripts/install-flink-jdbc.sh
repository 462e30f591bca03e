#!/usr/bin/env bash
# install-flink-jdbc.sh — Flink's JDBC driver (org.apache.flink:flink-sql-jdbc-driver-bundle) of the
# release in FLINK_VERSION, for the JDBC client test (tests/gateway/jdbc.sh). Never part of weir.
#
# Usage: scripts/install-flink-jdbc.sh   prints the jar's path on stdout (exit 0), or the reason on
#                                        stderr and exit 77 when it cannot be installed here
# Idempotent: the jar is cached in $WEIR_FLINK_CACHE (default ~/.cache/weir)/jdbc/ and reused
# without network. Fetched from Maven Central with Maven (installed by scripts/install-flink.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(tr -d '[:space:]' < "$ROOT/FLINK_VERSION")"
CACHE="${WEIR_FLINK_CACHE:-$HOME/.cache/weir}"
DIR="$CACHE/jdbc"
JAR="$DIR/flink-sql-jdbc-driver-bundle-$VERSION.jar"
log() { echo "install-flink-jdbc: $*" >&2; }

if [[ -s "$JAR" ]]; then echo "$JAR"; exit 0; fi
"$ROOT/scripts/install-flink.sh" > /dev/null || exit 77
command -v mvn >/dev/null 2>&1 || { log "Maven is not installed"; exit 77; }
mkdir -p "$DIR"
log "downloading org.apache.flink:flink-sql-jdbc-driver-bundle:$VERSION"
mvn -q -B -Dstyle.color=never dependency:copy \
    -Dartifact="org.apache.flink:flink-sql-jdbc-driver-bundle:$VERSION" -DoutputDirectory="$DIR" >&2 \
  || { log "cannot download flink-sql-jdbc-driver-bundle $VERSION from Maven Central"; exit 77; }
[[ -s "$JAR" ]] || { log "the download did not produce $JAR"; exit 77; }
echo "$JAR"
