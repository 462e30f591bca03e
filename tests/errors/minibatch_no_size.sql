-- mini-batch enabled with a latency but no size: the plan is made (COMPILE PLAN works), building
-- the operators fails, which EXPLAIN does too.
CREATE TABLE page_views (view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_hits (page STRING, hits BIGINT) WITH ('connector' = 'blackhole');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 s';
COMPILE PLAN 'file://$TMP/no-size.json' FOR INSERT INTO page_hits SELECT page, COUNT(*) FROM page_views GROUP BY page;
-- a query without aggregation needs no size
SELECT view_id FROM page_views WHERE view_id < 3;
EXPLAIN SELECT page, COUNT(*) AS hits FROM page_views GROUP BY page;
