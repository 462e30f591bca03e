#!/usr/bin/env bash
# scan_sink.sh — the jdbc connector against a real PostgreSQL server (tests/jdbc/lib.sh):
#  - a bounded scan split on scan.partition.* (Flink's bounds: only ids in [lower, upper] are read)
#    with every supported type, also through a cursor (scan.fetch-size);
#  - an append sink (no primary key): the rows inserted;
#  - an upsert sink (PRIMARY KEY NOT ENFORCED) fed by a streaming aggregation with updates and
#    deletes: the final table equals the batch computation of the same query by PostgreSQL;
#  - sink.max-retries: a row the database refuses fails the job with Flink's message after the
#    retries; errors (a url of another database, a missing table, half the credentials, reversed
#    partition bounds, an unsupported type, an updating query into a table without a key).
TEST_NAME=jdbc/scan_sink
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
pg_start

psql_q "CREATE TABLE dim(id INT PRIMARY KEY, name VARCHAR(20), price NUMERIC(10,2), ok BOOLEAN,
          ts TIMESTAMP(3), d DATE, b BYTEA, f DOUBLE PRECISION, big BIGINT)" > /dev/null
psql_q "INSERT INTO dim SELECT g, 'n' || g, g * 1.5, g % 2 = 0, TIMESTAMP '2024-01-01 00:00:00.125' + g * INTERVAL '1 minute',
          DATE '2024-01-01' + g, decode('0a0b', 'hex'), g / 4.0, g * 10000000000 FROM generate_series(0, 20) g" > /dev/null
psql_q "CREATE TABLE out_a(id INT, name VARCHAR(20), price NUMERIC(10,2))" > /dev/null
psql_q "CREATE TABLE out_u(k VARCHAR(10) PRIMARY KEY, c BIGINT)" > /dev/null
psql_q "CREATE TABLE out_chk(id INT CHECK (id < 3))" > /dev/null

CONN="'connector' = 'jdbc', 'url' = '$JDBC_URL', 'username' = 'weir', 'password' = 'weir-pw'"
DIM="CREATE TABLE dim (id INT, name STRING, price DECIMAL(10, 2), ok BOOLEAN, ts TIMESTAMP(3), d DATE, b BYTES,
  f DOUBLE, big BIGINT) WITH ($CONN, 'table-name' = 'dim'"

# --- partitioned scan: splits [2,4] [5,7] [8,9] (Flink's JdbcNumericBetweenParametersProvider) ---
cat > "$PGD/scan.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
$DIM, 'scan.partition.column' = 'id', 'scan.partition.num' = '3', 'scan.partition.lower-bound' = '2',
  'scan.partition.upper-bound' = '9');
SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi, SUM(price) AS s FROM dim;
SELECT * FROM dim WHERE id = 3;
SQL
out="$(weir_sql "$PGD/scan.sql")"
grep -qE '^\| +8 \| +2 \| +9 \| +66\.00 \|$' <<< "$out" || fail "partitioned scan: want 8 rows 2..9 summing 66.00, got: $out"
grep -qF '|  3 |   n3 |  4.50 | FALSE | 2024-01-01 00:03:00.125 | 2024-01-04 | x'"'"'0a0b'"'"' | 0.75 | 30000000000 |' <<< "$out" \
  || fail "the values of row 3 (every type): $out"

# --- the same through a cursor of 4 rows, parallelism 2 (splits shared by two subtasks) ---
cat > "$PGD/cursor.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '2';
$DIM, 'scan.fetch-size' = '4');
SELECT COUNT(*) AS n, SUM(id) AS s, COUNT(DISTINCT name) AS dn FROM dim;
SQL
out="$(weir_sql "$PGD/cursor.sql")"
grep -qE '^\| +21 \| +210 \| +21 \|$' <<< "$out" || fail "cursor scan: want 21 rows summing 210, got: $out"

# --- append sink ---
cat > "$PGD/append.sql" <<SQL
$DIM);
CREATE TABLE out_a (id INT, name STRING, price DECIMAL(10, 2)) WITH ($CONN, 'table-name' = 'out_a',
  'sink.buffer-flush.max-rows' = '3');
INSERT INTO out_a SELECT id, name, price FROM dim WHERE id BETWEEN 5 AND 11;
INSERT INTO out_a VALUES (100, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)));
SQL
out="$(weir_sql "$PGD/append.sql")"
got="$(psql_q "SELECT count(*), sum(id), count(name), sum(price) FROM out_a")"
[[ "$got" == "8|156|7|84.00" ]] || fail "append sink: want 8|156|7|84.00, got $got; client: $out"

# --- upsert sink: a streaming aggregation with updates and deletes (HAVING drops groups) ---
VALS="(1, 'a'), (2, 'b'), (3, 'a'), (4, 'c'), (5, 'a'), (6, 'b'), (7, 'd'), (8, 'a'), (9, 'c'), (10, 'e'), (11, 'b'), (12, 'e')"
cat > "$PGD/upsert.sql" <<SQL
CREATE TABLE out_u (k STRING, c BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ($CONN, 'table-name' = 'out_u',
  'sink.buffer-flush.max-rows' = '2', 'sink.buffer-flush.interval' = '0');
CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES $VALS) AS t(id, name);
INSERT INTO out_u SELECT name, COUNT(*) FROM v GROUP BY name HAVING COUNT(*) < 3;
SQL
out="$(weir_sql "$PGD/upsert.sql")"
got="$(psql_q "SELECT k || '=' || c FROM out_u ORDER BY k" | tr '\n' ' ')"
want="$(psql_q "SELECT name || '=' || count(*) FROM (VALUES $VALS) AS t(id, name) GROUP BY name HAVING count(*) < 3 ORDER BY name" | tr '\n' ' ')"
[[ -n "$want" && "$got" == "$want" ]] || fail "upsert sink: want '$want', got '$got'; client: $out"

# --- sink.max-retries: a refused row fails the job after the retries ---
cat > "$PGD/retry.sql" <<SQL
CREATE TABLE out_chk (id INT) WITH ($CONN, 'table-name' = 'out_chk', 'sink.max-retries' = '1');
INSERT INTO out_chk VALUES (1), (7);
SQL
out="$(weir_sql "$PGD/retry.sql")"; st=$?
[[ $st -ne 0 ]] || fail "a refused row: the client exited 0"
grep -qF 'Writing records to JDBC failed. (table '"'"'out_chk'"'"', after 1 retries: ERROR:  new row for relation "out_chk" violates check constraint' <<< "$out" \
  || fail "a refused row: $out"
[[ "$(psql_q "SELECT count(*) FROM out_chk")" == "0" ]] || fail "a refused flush left rows behind"

# --- errors ---
err_case() { # name, DDL + query, expected fragment
  printf "%s\n" "$2" | sed "s/; /;\n/g" > "$PGD/err.sql"
  local o s
  o="$(weir_sql "$PGD/err.sql")"; s=$?
  [[ $s -ne 0 ]] || fail "$1: the client exited 0: $o"
  grep -qF -- "$3" <<< "$o" || fail "$1: want '$3', got: $o"
}
err_case "other database" "CREATE TABLE x (id INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://127.0.0.1:$PGPORT/weir', 'table-name' = 'dim'); SELECT * FROM x;" \
  "Could not find any jdbc dialect factory that can handle url 'jdbc:mysql://127.0.0.1:$PGPORT/weir'"
err_case "missing table" "SET 'sql-client.execution.result-mode' = 'tableau'; SET 'execution.runtime-mode' = 'batch'; CREATE TABLE x (id INT) WITH ($CONN, 'table-name' = 'nope'); SELECT * FROM x;" \
  'relation "nope" does not exist'
err_case "half the credentials" "CREATE TABLE x (id INT) WITH ('connector' = 'jdbc', 'url' = '$JDBC_URL', 'table-name' = 'dim', 'username' = 'weir'); SELECT * FROM x;" \
  "Either all or none of the following options should be provided:
username
password"
err_case "reversed bounds" "CREATE TABLE x (id INT) WITH ($CONN, 'table-name' = 'dim', 'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '9', 'scan.partition.upper-bound' = '2'); SELECT * FROM x;" \
  "'scan.partition.lower-bound'='9' must not be larger than 'scan.partition.upper-bound'='2'."
err_case "unsupported type" "CREATE TABLE x (id INT, m MAP<INT, INT>) WITH ($CONN, 'table-name' = 'dim'); SELECT * FROM x;" \
  "The PostgreSQL dialect doesn't support type: MAP<INT, INT>."
err_case "wrong password" "SET 'sql-client.execution.result-mode' = 'tableau'; SET 'execution.runtime-mode' = 'batch'; CREATE TABLE x (id INT) WITH ('connector' = 'jdbc', 'url' = '$JDBC_URL', 'table-name' = 'dim', 'username' = 'nobody', 'password' = 'x'); SELECT * FROM x;" \
  "Cannot connect to '$JDBC_URL'"
err_case "updates without a key" "CREATE TABLE x (k STRING, c BIGINT) WITH ($CONN, 'table-name' = 'out_u'); INSERT INTO x SELECT name, COUNT(*) FROM (VALUES (1, 'a')) AS t(id, name) GROUP BY name;" \
  "please declare primary key for sink table when query contains update/delete record."
exit 0
