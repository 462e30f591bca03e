-- The COUNT(DISTINCT) split of the plans lesson, read from the plan with our own tables: with
-- table.optimizer.distinct-agg.split.enabled the aggregate becomes a PARTIAL one grouped by
-- MOD(HASH_CODE(visitor_id), 1024) as well and a FINAL one ($SUM0 of the partial counts); under
-- mini-batch the PARTIAL global and FINAL local aggregates become one IncrementalGroupAggregate
-- (or stay apart with table.optimizer.incremental-agg-enabled off); the bucket count follows
-- .bucket-num; queries the split leaves alone.
CREATE TABLE page_views (
  view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_visitors (page STRING, visitors BIGINT) WITH ('connector' = 'blackhole');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '200';

-- without the split: one GroupAggregate keeps every visitor of a page in one subtask
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;

SET 'table.optimizer.distinct-agg.split.enabled' = 'true';

-- PARTIAL / FINAL with 1024 buckets (no mini-batch: two GroupAggregates, two shuffles)
EXPLAIN CHANGELOG_MODE SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;

-- other aggregates ride along: COUNT(*) -> $SUM0, SUM -> SUM, MAX of the distinct column -> MAX
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors, COUNT(*) AS hits, SUM(dwell_ms) AS dwell,
  MAX(visitor_id) AS top_visitor FROM page_views GROUP BY page;

-- the bucket count
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;
RESET 'table.optimizer.distinct-agg.split.bucket-num';

-- with mini-batch: Local(PARTIAL) -> IncrementalGroupAggregate -> Global(FINAL)
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '2 s';
SET 'table.exec.mini-batch.size' = '1000';
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;

-- the incremental aggregate switched off: Local/Global PARTIAL, then Local/Global FINAL
SET 'table.optimizer.incremental-agg-enabled' = 'false';
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;
RESET 'table.optimizer.incremental-agg-enabled';

-- ONE_PHASE with mini-batch: GroupAggregate PARTIAL and FINAL behind the assigner
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXPLAIN SELECT page, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;
RESET 'table.optimizer.agg-phase-strategy';

-- the state of each node of the split
COMPILE PLAN 'file://$TMP/split.json' FOR
INSERT INTO page_visitors SELECT page, COUNT(DISTINCT visitor_id) FROM page_views GROUP BY page;
CREATE TABLE split_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/split.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM split_plan
WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';
