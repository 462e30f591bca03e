#!/usr/bin/env bash
# damaged_plan.sh — EXECUTE PLAN of a damaged compiled plan through the cluster (issue 19: an
# out-of-range timeAttributeIndex crashed the daemon and every running job with it): the statement
# fails with a clear error naming the node and the field, the running job and the daemon stay up.
TEST_NAME=damaged_plan
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"
cluster_start

cat > "$W/job.sql" <<SQL
CREATE TABLE gen (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');
CREATE TABLE sink (k INT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'bystander';
INSERT INTO sink SELECT k FROM gen;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name bystander)"
check "a bystander job runs" wait_state "$jid" RUNNING
for plan in time_attribute_index row_without_fields grouping_index calc_output_type; do
  echo "EXECUTE PLAN '$ROOT/tests/golden/data/damaged_plans/$plan.json';" > "$W/$plan.sql"
  sql "$W/$plan.sql" > "$W/$plan.out" 2>&1
  check "$plan: refused with a clear error" grep -q "Invalid compiled plan: node [0-9]* (stream-exec-" "$W/$plan.out"
done
api GET /overview > /dev/null
check "the daemon answers after the damaged plans" test "$STATUS" = 200
check "the bystander job is still RUNNING" wait_state "$jid" RUNNING
exit 0
