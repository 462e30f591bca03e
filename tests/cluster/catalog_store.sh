#!/usr/bin/env bash
# catalog_store.sh — Flink's file catalog store (table.catalog-store.kind: file in the cluster's
# config.yaml): CREATE CATALOG writes <path>/<name>.yaml as Flink's FileCatalogStore does, the
# catalog is there again after bin/stop-cluster.sh + bin/start-cluster.sh (a new session reads the
# store), ALTER CATALOG rewrites the file, DROP CATALOG deletes it, and a catalog created in the
# cluster's sessions is visible to later sessions without a restart.
TEST_NAME=catalog_store
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl
cluster_setup
W="$TMPD/work"
STORE="$TMPD/catalogs"
{
  echo "table.catalog-store.kind: file"
  echo "table.catalog-store.file.path: file://$STORE"
} >> "$TMPD/conf/config.yaml"
start() { WEIR_BIN="$WEIR" "$ROOT/bin/start-cluster.sh" > "$TMPD/start.out" 2>&1 || { cat "$TMPD/start.out"; return 1; }; read -r _ PORT < "$TMPD/log/weir-cluster.rest"; }
stop() { WEIR_BIN="$WEIR" "$ROOT/bin/stop-cluster.sh" > "$TMPD/stop.out" 2>&1; }
check "the cluster starts" start

cat > "$W/create.sql" <<'SQL'
CREATE CATALOG shop COMMENT 'not kept by the file store' WITH ('type' = 'generic_in_memory', 'default-database' = 'main');
CREATE CATALOG scratch WITH ('type' = 'generic_in_memory');
CREATE DATABASE shop.archive;
SHOW CATALOGS;
SQL
sql "$W/create.sql" > "$W/create.out" 2>&1
check "CREATE CATALOG succeeds" test "$(grep -c 'Execute statement succeeded' "$W/create.out")" -eq 3
check "the store has one file per catalog" test -f "$STORE/shop.yaml" -a -f "$STORE/scratch.yaml"
printf 'default-database: "main"\ntype: "generic_in_memory"\n' > "$W/want.yaml"
check "shop.yaml is Flink's FileCatalogStore layout" cmp -s "$STORE/shop.yaml" "$W/want.yaml"

cat > "$W/later.sql" <<'SQL'
SHOW CATALOGS;
SQL
sql "$W/later.sql" > "$W/later.out" 2>&1
check "a later session sees the catalogs" grep -qE '^\| +shop \|$' "$W/later.out"

check "the cluster stops" stop
check "the cluster starts again" start
cat > "$W/after.sql" <<'SQL'
SHOW CATALOGS;
DESCRIBE CATALOG EXTENDED shop;
USE CATALOG shop;
SHOW CURRENT DATABASE;
SHOW DATABASES;
ALTER CATALOG scratch SET ('property-version' = '1');
DROP CATALOG IF EXISTS nothing;
SQL
sql "$W/after.sql" > "$W/after.out" 2>&1
check "the catalogs survive the restart" test "$(grep -cE '^\| +(shop|scratch) \|$' "$W/after.out")" -eq 2
check "DESCRIBE CATALOG shows the stored options (no comment)" grep -qE '^\| option:default-database \| +main \|$' "$W/after.out"
check "the restored catalog's default database is current after USE CATALOG" grep -qE '^\| +main \|$' "$W/after.out"
check "databases of an in-memory catalog are not kept" bash -c "! grep -q archive '$W/after.out'"
check "ALTER CATALOG rewrites the file" grep -q '^property-version: "1"$' "$STORE/scratch.yaml"

cat > "$W/drop.sql" <<'SQL'
DROP CATALOG scratch;
SQL
sql "$W/drop.sql" > "$W/drop.out" 2>&1
check "DROP CATALOG deletes the file" test ! -e "$STORE/scratch.yaml"
check "the cluster stops again" stop
check "and starts again" start
sql "$W/later.sql" > "$W/final.out" 2>&1
check "a dropped catalog stays dropped" bash -c "! grep -q scratch '$W/final.out' && grep -q shop '$W/final.out'"
[[ $FAILS -gt 0 ]] && { echo "--- create"; cat "$W/create.out"; echo "--- after"; cat "$W/after.out"; }
exit 0
