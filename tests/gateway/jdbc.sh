#!/usr/bin/env bash
# jdbc.sh — Flink's JDBC driver (flink-sql-jdbc-driver-bundle of the pinned release, installed by
# scripts/install-flink-jdbc.sh) against a weir daemon's SQL gateway endpoint: tests/gateway/jdbc/
# GatewayJdbc.java (compiled here with javac) runs DDL, SET, a batch query and a bounded streaming
# query, printing column names, SQL types and Java classes and every value, then a bad statement's
# error. Its output and the endpoints the driver called (with their statuses, through
# tests/gateway/proxy.py) must equal what it printed and called against Flink 2.3.0's own gateway
# (tests/gateway/flink-recorded/jdbc.out, jdbc.endpoints). Skipped (77) when Java or the driver
# cannot be installed here.
TEST_NAME=gateway/jdbc
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3 java javac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CP="$("$ROOT/scripts/install-flink-jdbc.sh" 2>/dev/null | tail -n 1)" || true
[[ -n "$CP" ]] || skip "Flink's JDBC driver cannot be installed here (scripts/install-flink-jdbc.sh)"
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
mkdir -p "$TMPD/classes"
javac -d "$TMPD/classes" -cp "$CP" "$here/jdbc/GatewayJdbc.java" || { fail "GatewayJdbc.java does not compile"; exit 1; }
start_gateway_proxy "$TMPD/endpoints.log"
timeout 300 java -cp "$CP:$TMPD/classes" GatewayJdbc "127.0.0.1:$PPORT" > "$TMPD/jdbc.out" 2> "$TMPD/jdbc.err" < /dev/null
if ! diff -u "$here/flink-recorded/jdbc.out" "$TMPD/jdbc.out" > "$TMPD/jdbc.diff"; then
  fail "Flink's JDBC driver reads other results from weir:"; head -n 40 "$TMPD/jdbc.diff"; tail -n 20 "$TMPD/jdbc.err"
fi
sort -u "$TMPD/endpoints.log" > "$TMPD/endpoints"
if ! diff -u "$here/flink-recorded/jdbc.endpoints" "$TMPD/endpoints"; then
  fail "the driver called other endpoints (or got other statuses) than against Flink's gateway"
fi
