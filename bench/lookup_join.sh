#!/usr/bin/env bash
# lookup_join.sh — lookup join throughput against a throw-away PostgreSQL server (tests/jdbc/lib.sh):
# ROWS probe rows (default 200000) over KEYS keys (default 1000) from a csv file, joined with a jdbc
# dim table into a blackhole sink, once with lookup.cache PARTIAL and once without a cache; prints
# the wall time and the LookupJoin's metrics of each run. Not part of `make test`.
# Usage: bench/lookup_join.sh [weir binary]     (default build/weir)
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WEIR="${1:-$ROOT/build/weir}"
ROWS="${ROWS:-200000}" KEYS="${KEYS:-1000}"
TEST_NAME=bench/lookup_join
source "$ROOT/tests/jdbc/lib.sh"
pg_start
psql_q "CREATE TABLE dim(id INT PRIMARY KEY, name VARCHAR(20), v INT);
        INSERT INTO dim SELECT g, 'n' || g, g FROM generate_series(0, $KEYS - 1) g" > /dev/null
python3 -c "
with open('$PGD/o.csv', 'w') as f:
    for i in range($ROWS): f.write('%d,%d\n' % (i, (i * 7919) % $KEYS))
"
chmod 644 "$PGD/o.csv"
for cache in "'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '$KEYS'," ""; do
  cat > "$PGD/b.sql" <<SQL
SET 'table.dml-sync' = 'true';
CREATE TABLE o (id INT, k INT, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '$PGD/o.csv', 'format' = 'csv');
CREATE TABLE dim (id INT, name STRING, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH ($cache 'connector' = 'jdbc',
  'url' = '$JDBC_URL', 'table-name' = 'dim', 'username' = 'weir', 'password' = 'weir-pw');
CREATE TABLE b (id INT, name STRING, v INT) WITH ('connector' = 'blackhole');
INSERT INTO b SELECT o.id, d.name, d.v FROM o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id;
SQL
  t0=$(date +%s%N)
  out="$(WEIR_EMBEDDED=1 "$WEIR" sql-client -v -f "$PGD/b.sql" 2>&1)"
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  label=NONE
  [[ -n "$cache" ]] && label=PARTIAL
  echo "cache $label: $ROWS rows in $ms ms ($(( ROWS * 1000 / (ms ? ms : 1) )) rows/s): $(grep -oE '(hitCount|missCount|loadCount)=[0-9]+' <<< "$out" | tr '\n' ' ')"
done
