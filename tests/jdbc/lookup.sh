#!/usr/bin/env bash
# lookup.sh — the lookup join (JOIN dim FOR SYSTEM_TIME AS OF o.proc_time) against a real
# PostgreSQL dim table (tests/jdbc/lib.sh):
#  - INNER and LEFT joins (a dim-only condition and one reading both sides) of 3000 orders whose
#    keys repeat, are missing from the dim table or NULL: the rows written (jdbc sink) equal
#    PostgreSQL's own join of the same data (the batch computation);
#  - lookup.cache PARTIAL: `-v` reports Flink's cache metrics, one miss and one load per distinct
#    key, hits for the rest; without a cache one load per row with a non-NULL key; with
#    max-rows 10 over 60 keys in rotation every probe misses (least recently used evicted);
#  - COMPILE PLAN / EXECUTE PLAN of both joins give the same rows;
#  - the same job on a weir cluster: /weir/jobs/:jid/state shows the counts;
#  - errors measured on Flink 2.3 with the jdbc connector: RIGHT JOIN, no equality on the dim
#    table's columns, a filesystem table (no lookup source in Flink 2.3); FULL cache refused;
#  - a query that keeps failing: the job fails after lookup.max-retries with PostgreSQL's message;
#    a database restart during a job: the lookups reconnect and every row is joined.
TEST_NAME=jdbc/lookup
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
pg_start

psql_q "CREATE TABLE dim(id INT PRIMARY KEY, name VARCHAR(20), v INT)" > /dev/null
psql_q "INSERT INTO dim SELECT g, 'n' || g, g * 10 FROM generate_series(0, 39) g" > /dev/null
psql_q "CREATE TABLE orders(id INT, k INT, tag VARCHAR(10))" > /dev/null
psql_q "CREATE TABLE out_i(id INT, k INT, name VARCHAR(20), v INT)" > /dev/null
psql_q "CREATE TABLE out_l(id INT, name VARCHAR(20), v INT)" > /dev/null

# 3000 orders: keys (i * 7) mod 60 (0..39 in the dim table, 40..59 not), every 97th key NULL
python3 - "$PGD/orders.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1, 3001):
        k = "" if i % 97 == 0 else str((i * 7) % 60)
        f.write("%d,%s,t%d\n" % (i, k, i % 5))
PY
chmod 644 "$PGD/orders.csv"
psql -X -q -v ON_ERROR_STOP=1 -c "\\copy orders FROM '$PGD/orders.csv' WITH (FORMAT csv)" > /dev/null \
  || { fail "could not load the orders"; exit 1; }

CONN="'connector' = 'jdbc', 'url' = '$JDBC_URL', 'username' = 'weir', 'password' = 'weir-pw'"
ORDERS="SET 'table.dml-sync' = 'true';
CREATE TABLE o (id INT, k INT, tag STRING, proc_time AS PROCTIME()) WITH ('connector' = 'filesystem',
  'path' = '$PGD/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');"
DIM="CREATE TABLE dim (id INT, name STRING, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH ($CONN, 'table-name' = 'dim'"
OUTS="CREATE TABLE out_i (id INT, k INT, name STRING, v INT) WITH ($CONN, 'table-name' = 'out_i');
CREATE TABLE out_l (id INT, name STRING, v INT) WITH ($CONN, 'table-name' = 'out_l');"
INNER="INSERT INTO out_i SELECT o.id, o.k, d.name, d.v FROM o JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d
  ON o.k = d.id AND o.id > d.v;"
LEFT="INSERT INTO out_l SELECT o.id, d.name, d.v FROM o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d
  ON o.k = d.id AND d.v >= 150;"

# both tables equal PostgreSQL's join of the same rows
check_tables() {
  local what="$1" n
  n="$(psql_q "SELECT count(*) FROM ((SELECT * FROM out_i EXCEPT ALL
         SELECT o.id, o.k, d.name, d.v FROM orders o JOIN dim d ON o.k = d.id AND o.id > d.v)
       UNION ALL (SELECT o.id, o.k, d.name, d.v FROM orders o JOIN dim d ON o.k = d.id AND o.id > d.v
         EXCEPT ALL SELECT * FROM out_i)) x")"
  [[ "$n" == 0 ]] || fail "$what: the INNER lookup join differs from PostgreSQL's join in $n rows"
  n="$(psql_q "SELECT count(*) FROM ((SELECT * FROM out_l EXCEPT ALL
         SELECT o.id, d.name, d.v FROM orders o LEFT JOIN dim d ON o.k = d.id AND d.v >= 150)
       UNION ALL (SELECT o.id, d.name, d.v FROM orders o LEFT JOIN dim d ON o.k = d.id AND d.v >= 150
         EXCEPT ALL SELECT * FROM out_l)) x")"
  [[ "$n" == 0 ]] || fail "$what: the LEFT lookup join differs from PostgreSQL's join in $n rows"
  [[ "$(psql_q "SELECT count(*) FROM out_l")" == 3000 ]] || fail "$what: the LEFT join lost rows"
  psql_q "TRUNCATE out_i; TRUNCATE out_l" > /dev/null
}

# the metric value of NAME in the -v report line of the LookupJoin (the first, or the Nth)
metric() { grep -E 'LookupJoin' <<< "$1" | grep -oE "$2=[0-9]+" | sed -n "${3:-1}p" | cut -d= -f2; }

# --- PARTIAL cache ---
KEYS="$(psql_q "SELECT count(DISTINCT k) FROM orders")"          # 60 distinct non-NULL keys
ROWS="$(psql_q "SELECT count(k) FROM orders")"                   # rows with a key
cat > "$PGD/cached.sql" <<SQL
$ORDERS
$DIM, 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '1000',
  'lookup.partial-cache.expire-after-write' = '1 h');
$OUTS
$INNER
$LEFT
SQL
out="$(WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/cached.sql" 2>&1)"
check_tables "PARTIAL cache"
for i in 1 2; do
  [[ "$(metric "$out" missCount $i)" == "$KEYS" ]] || fail "PARTIAL cache job $i: want missCount=$KEYS: $out"
  [[ "$(metric "$out" loadCount $i)" == "$KEYS" ]] || fail "PARTIAL cache job $i: want loadCount=$KEYS: $out"
  [[ "$(metric "$out" hitCount $i)" == "$((ROWS - KEYS))" ]] || fail "PARTIAL cache job $i: want hitCount=$((ROWS - KEYS)): $out"
  [[ "$(metric "$out" numCachedRecords $i)" == "$KEYS" ]] || fail "PARTIAL cache job $i: want $KEYS cached keys: $out"
done

# --- no cache: every row with a key is a load ---
cat > "$PGD/nocache.sql" <<SQL
$ORDERS
$DIM);
$OUTS
$INNER
$LEFT
SQL
out="$(WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/nocache.sql" 2>&1)"
check_tables "no cache"
[[ "$(metric "$out" loadCount)" == "$ROWS" ]] || fail "no cache: want loadCount=$ROWS: $out"
grep -E 'LookupJoin' <<< "$out" | grep -q hitCount && fail "no cache: no cache metrics expected: $out"

# --- COMPILE PLAN then EXECUTE PLAN of both joins: the same rows ---
cat > "$PGD/plan.sql" <<SQL
$ORDERS
$DIM, 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '1000');
$OUTS
COMPILE PLAN '$PGD/inner.json' FOR $INNER
COMPILE PLAN '$PGD/left.json' FOR $LEFT
EXECUTE PLAN '$PGD/inner.json';
EXECUTE PLAN '$PGD/left.json';
SQL
out="$(weir_sql "$PGD/plan.sql")"
grep -q "ERROR" <<< "$out" && fail "EXECUTE PLAN of lookup joins: $out"
check_tables "EXECUTE PLAN"

# --- max-rows 10 over keys in rotation of 60: every probe misses (legacy options) ---
cat > "$PGD/small.sql" <<SQL
$ORDERS
$DIM, 'lookup.cache.max-rows' = '10', 'lookup.cache.ttl' = '10 min');
$OUTS
$INNER
SQL
out="$(WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/small.sql" 2>&1)"
[[ "$(metric "$out" hitCount)" == 0 && "$(metric "$out" missCount)" == "$ROWS" ]] \
  || fail "max-rows 10: want 0 hits and $ROWS misses: $out"
[[ "$(metric "$out" numCachedRecords)" == 10 ]] || fail "max-rows 10: want 10 cached keys: $out"
psql_q "TRUNCATE out_i" > /dev/null

# --- cache-missing-key false: the 20 keys without a dim row are fetched again each time ---
MISSING="$(psql_q "SELECT count(*) FROM orders WHERE k >= 40")"
cat > "$PGD/missing.sql" <<SQL
$ORDERS
$DIM, 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '1000',
  'lookup.partial-cache.cache-missing-key' = 'false');
$OUTS
$INNER
SQL
out="$(WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/missing.sql" 2>&1)"
[[ "$(metric "$out" loadCount)" == "$((40 + MISSING))" && "$(metric "$out" numCachedRecords)" == 40 ]] \
  || fail "cache-missing-key false: want loadCount=$((40 + MISSING)) and 40 cached keys: $out"
# the legacy name of the same option
sed "s/'lookup.partial-cache.max-rows' = '1000',/'lookup.cache.max-rows' = '1000', 'lookup.cache.ttl' = '1 h',/;
     s/'lookup.partial-cache.cache-missing-key'/'lookup.cache.caching-missing-key'/;
     s/'lookup.cache' = 'PARTIAL', //" "$PGD/missing.sql" > "$PGD/missing_legacy.sql"
out="$(WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/missing_legacy.sql" 2>&1)"
[[ "$(metric "$out" loadCount)" == "$((40 + MISSING))" ]] \
  || fail "lookup.cache.caching-missing-key false: want loadCount=$((40 + MISSING)): $out"
psql_q "TRUNCATE out_i" > /dev/null

# --- lookup.max-retries: a query that keeps failing (key 45 divides by zero in the view) ---
psql_q "CREATE VIEW dimv AS SELECT g AS id, 'n' || g AS name, 100 / (g - 45) AS v FROM generate_series(0, 59) g" \
  > /dev/null
cat > "$PGD/retry.sql" <<SQL
$ORDERS
CREATE TABLE dim (id INT, name STRING, v INT) WITH ($CONN, 'table-name' = 'dimv', 'lookup.max-retries' = '1');
$OUTS
$INNER
SQL
t0=$(date +%s%N)
out="$(weir_sql "$PGD/retry.sql")"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
grep -qF "Execution of JDBC statement failed. Looking up table 'dimv' after 1 retries: ERROR:  division by zero" \
  <<< "$out" || fail "lookup.max-retries: want the job to fail after 1 retry with PostgreSQL's message: $out"
[[ $ms -ge 1000 ]] || fail "lookup.max-retries 1: the retry waits 1 s, the job failed after $ms ms"
psql_q "TRUNCATE out_i" > /dev/null

# --- the database restarts while the job runs: lookups retry, reconnect and go on ---
cat > "$PGD/restart.sql" <<SQL
SET 'table.dml-sync' = 'true';
CREATE TABLE g (id INT, k INT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'rows-per-second' = '50',
  'number-of-rows' = '300', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '300',
  'fields.k.min' = '0', 'fields.k.max' = '39');
$DIM, 'lookup.max-retries' = '5');
$OUTS
INSERT INTO out_i SELECT g.id, g.k, d.name, d.v FROM g JOIN dim FOR SYSTEM_TIME AS OF g.pt AS d ON g.k = d.id;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$PGD/restart.sql" > "$PGD/restart.out" 2>&1 &
wpid=$!
sleep 2
"${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -m fast -w -t 30 restart > /dev/null 2>&1 || fail "postgres did not restart"
wait "$wpid"
out="$(cat "$PGD/restart.out")"
grep -q "ERROR" <<< "$out" && fail "database restart: the job failed: $out"
[[ "$(psql_q "SELECT count(*) FROM out_i")" == 300 && "$(metric "$out" loadCount)" == 300 ]] \
  || fail "database restart: want 300 rows joined and 300 loads: $(psql_q "SELECT count(*) FROM out_i") rows, $out"
psql_q "TRUNCATE out_i" > /dev/null

# --- REST: the job on a weir cluster, its LookupJoin's metrics in /weir/jobs/:jid/state ---
WD="$PGD/weir"
mkdir -p "$WD/conf" "$WD/log"
printf 'rest:\n  address: 127.0.0.1\n  bind-address: 127.0.0.1\n  port: 0\nsql-gateway.endpoint.rest.port: 0\nparallelism.default: 1\n' \
  > "$WD/conf/config.yaml"
cluster_stop() {
  local rc=$? pid
  if [[ -f "$WD/log/weir-cluster.pid" ]]; then
    pid="$(cat "$WD/log/weir-cluster.pid" 2>/dev/null)"
    WEIR_CONF_DIR="$WD/conf" WEIR_LOG_DIR="$WD/log" timeout 40 "$WEIR" cluster stop > /dev/null 2>&1
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
  fi
  (exit $rc)
  pg_cleanup
}
trap cluster_stop EXIT INT TERM
if WEIR_CONF_DIR="$WD/conf" WEIR_LOG_DIR="$WD/log" "$WEIR" cluster start > "$WD/start.out" 2>&1; then
  read -r _ PORT < "$WD/log/weir-cluster.rest"
  grep -v "dml-sync" "$PGD/cached.sql" | grep -v "^INSERT INTO out_l\|^  ON o.k = d.id AND d.v >= 150" > "$PGD/remote.sql"
  env -u WEIR_EMBEDDED WEIR_CONF_DIR="$WD/conf" WEIR_LOG_DIR="$WD/log" timeout 120 "$WEIR" sql-client -f "$PGD/remote.sql" \
    < /dev/null > "$WD/client.out" 2>&1
  jid="$(sed -n 's/^Job ID: \([0-9a-f]*\).*/\1/p' "$WD/client.out" | head -n 1)"
  st=""
  for _ in $(seq 300); do
    st="$(curl -s --max-time 5 "http://127.0.0.1:$PORT/jobs/$jid/status" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status",""))' 2>/dev/null)"
    [[ "$st" == FINISHED || "$st" == FAILED ]] && break
    sleep 0.1
  done
  [[ "$st" == FINISHED ]] || fail "REST: the job $jid is '$st', not FINISHED: $(cat "$WD/client.out")"
  m="$(curl -s --max-time 5 "http://127.0.0.1:$PORT/weir/jobs/$jid/state" | python3 -c '
import json, sys
for o in json.load(sys.stdin)["operators"]:
    if "LookupJoin" in o["operator"]: print(o["other_metrics"])')"
  [[ "$(grep -oE 'missCount=[0-9]+' <<< "$m")" == "missCount=$KEYS" &&
     "$(grep -oE 'hitCount=[0-9]+' <<< "$m")" == "hitCount=$((ROWS - KEYS))" ]] \
    || fail "REST: want hitCount=$((ROWS - KEYS)) missCount=$KEYS in /weir/jobs/$jid/state, got '$m'"
  psql_q "TRUNCATE out_i" > /dev/null
else
  fail "the weir cluster did not start: $(cat "$WD/start.out")"
fi

# --- errors (Flink 2.3 with flink-connector-jdbc 4.0, measured) ---
expect_error() {
  local what="$1" want="$2" sql="$3"
  printf '%s\n%s);\nCREATE TABLE fdim (id INT, name STRING, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH (%s);\n%s\n' \
    "$ORDERS" "$DIM" "'connector' = 'filesystem', 'path' = '$PGD/orders.csv', 'format' = 'csv'" "$sql" > "$PGD/err.sql"
  local o
  o="$(weir_sql "$PGD/err.sql")"
  grep -qF -- "$want" <<< "$o" || fail "$what: want '$want', got: $o"
}
expect_error "RIGHT JOIN" "java.lang.IllegalStateException: Unknown join type RIGHT" \
  "SELECT o.id, d.name FROM o RIGHT JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;"
expect_error "no equality" \
  "org.apache.flink.table.api.TableException: Temporal table join requires an equality condition on fields of table [default_catalog.default_database.dim]." \
  "SELECT o.id, d.name FROM o JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.id < d.id;"
expect_error "filesystem table" \
  "org.apache.flink.table.api.TableException: Processing-time temporal join is not supported yet." \
  "SELECT o.id, d.name FROM o JOIN fdim FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;"
expect_error "filesystem table without a primary key" \
  "org.apache.flink.table.api.ValidationException: Temporal Table Join requires primary key in versioned table, but no primary key can be found." \
  "CREATE TABLE fdim2 (id INT, name STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '$PGD/orders.csv', 'format' = 'csv');
SELECT o.id, d.name FROM o JOIN fdim2 FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;"
expect_error "FULL cache" "Option 'lookup.cache'='FULL' of the 'jdbc' connector is not supported by weir yet." \
  "SELECT o.id, d.name FROM o JOIN dim /*+ OPTIONS('lookup.cache' = 'FULL') */ FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;"

exit 0
