#!/usr/bin/env bash
# file_catalog.sh — the weir-file catalog type (docs/user-guide.md, "Persistent catalogs"): with
# Flink's file catalog store keeping the catalog's definition, the databases, tables and views
# created in a weir-file catalog are there again after bin/stop-cluster.sh + bin/start-cluster.sh
# (a new session reads the store, then the catalog's folder), can be queried, and later ALTER /
# DROP statements change the folder so that a second restart shows the changed catalog. Temporary
# objects are not kept.
TEST_NAME=file_catalog
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cluster_setup
W="$TMPD/work"
STORE="$TMPD/catalogs"
PC="$TMPD/pc"
{
  echo "table.catalog-store.kind: file"
  echo "table.catalog-store.file.path: $STORE"
} >> "$TMPD/conf/config.yaml"
start() { WEIR_BIN="$WEIR" "$ROOT/bin/start-cluster.sh" > "$TMPD/start.out" 2>&1 || { cat "$TMPD/start.out"; return 1; }; }
stop() { WEIR_BIN="$WEIR" "$ROOT/bin/stop-cluster.sh" > "$TMPD/stop.out" 2>&1; }
printf '1,10.50,north\n2,250.00,south\n3,99.99,north\n4,1200.00,east\n' > "$W/orders.csv"
check "the cluster starts" start

cat > "$W/create.sql" <<SQL
CREATE CATALOG pc WITH ('type' = 'weir-file', 'path' = '$PC', 'default-database' = 'main');
CREATE DATABASE pc.shop COMMENT 'the shop' WITH ('owner' = 'sales');
CREATE TABLE pc.shop.orders (
  id INT NOT NULL COMMENT 'order id',
  amount DECIMAL(10, 2),
  region STRING,
  PRIMARY KEY (id) NOT ENFORCED
) COMMENT 'all orders' WITH ('connector' = 'filesystem', 'path' = '$W/orders.csv', 'format' = 'csv');
CREATE VIEW pc.shop.big_orders (order_id, amount) COMMENT 'over 100' AS SELECT id, amount FROM pc.shop.orders WHERE amount > 100;
USE CATALOG pc;
USE shop;
CREATE VIEW north AS SELECT order_id FROM big_orders WHERE order_id > 2;
CREATE TEMPORARY TABLE scratch (x INT) WITH ('connector' = 'datagen');
CREATE TABLE main.gone (x INT) WITH ('connector' = 'datagen');
DROP TABLE main.gone;
SQL
sql "$W/create.sql" > "$W/create.out" 2>&1
check "the DDL succeeds" test "$(grep -c 'Execute statement succeeded' "$W/create.out")" -eq 10
check "the catalog's definition is in the store" test -f "$STORE/pc.yaml"
check "a folder per database with its file" test -f "$PC/shop/.database.yaml" -a -f "$PC/main/.database.yaml"
check "a file per table and view" test -f "$PC/shop/orders.sql" -a -f "$PC/shop/big_orders.sql" -a -f "$PC/shop/north.sql"
check "no file for a temporary or dropped table" test ! -e "$PC/shop/scratch.sql" -a ! -e "$PC/main/gone.sql"

check "the cluster stops" stop
check "the cluster starts again" start
cat > "$W/after.sql" <<'SQL'
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SHOW CATALOGS;
DESCRIBE CATALOG EXTENDED pc;
SHOW DATABASES IN pc;
SHOW TABLES FROM pc.shop;
SHOW VIEWS FROM pc.shop;
DESCRIBE pc.shop.orders;
SELECT * FROM pc.shop.big_orders;
USE CATALOG pc;
SELECT * FROM shop.north;
ALTER TABLE shop.orders SET ('csv.ignore-parse-errors' = 'true');
ALTER VIEW shop.north RENAME TO north2;
DROP VIEW shop.big_orders;
SQL
sql "$W/after.sql" > "$W/after.out" 2>&1
check "the catalog survives the restart" grep -qE '^\| +pc \|$' "$W/after.out"
check "its definition (type and options) is read back from the store" bash -c "grep -qE '^\| +type \| +weir-file \|$' '$W/after.out' && grep -qE '^\| +option:default-database \| +main \|$' '$W/after.out'"
check "its databases too" test "$(grep -cE '^\| +(main|shop) \|$' "$W/after.out")" -eq 2
check "its tables and views too" test "$(grep -cE '^\| +(orders|big_orders|north) \|$' "$W/after.out")" -eq 5
check "the table keeps its primary key and comment" grep -qE '^\| +id \| +INT \| FALSE \| PRI\(id\) \| +\| +\| order id \|$' "$W/after.out"
check "the stored view reads the stored table" test "$(grep -cE '^\| +(2 \| +250.00|4 \| +1200.00) \|$' "$W/after.out")" -eq 2
check "a view over a view" grep -qE '^\| +4 \|$' "$W/after.out"
check "the temporary table is gone" bash -c "! grep -q scratch '$W/after.out'"
check "ALTER / DROP succeed" test "$(grep -c 'Execute statement succeeded' "$W/after.out")" -eq 6
check "ALTER TABLE SET rewrites the table's file" grep -q "'csv.ignore-parse-errors' = 'true'" "$PC/shop/orders.sql"
check "RENAME moves the view's file" test -f "$PC/shop/north2.sql" -a ! -e "$PC/shop/north.sql"
check "DROP deletes the file" test ! -e "$PC/shop/big_orders.sql"

check "the cluster stops again" stop
check "and starts again" start
cat > "$W/final.sql" <<'SQL'
SHOW TABLES FROM pc.shop;
DROP DATABASE pc.shop CASCADE;
SQL
cat > "$W/broken.sql" <<'SQL'
SELECT * FROM pc.shop.north2;
SQL
sql "$W/broken.sql" > "$W/broken.out" 2>&1
check "a view over a dropped view is kept and fails when used" grep -q "Object 'big_orders' not found" "$W/broken.out"
sql "$W/final.sql" > "$W/final.out" 2>&1
check "the changes survive the restart" test "$(grep -cE '^\| +(orders|north2) \|$' "$W/final.out")" -eq 2 
check "and nothing else" bash -c "! grep -qE '^\| +(big_orders|north) \|$' '$W/final.out'"
check "DROP DATABASE CASCADE deletes its folder" test ! -e "$PC/shop"
stop
[[ $FAILS -gt 0 ]] && { for f in create after broken final; do echo "--- $f"; cat "$W/$f.out"; done; }
exit 0
