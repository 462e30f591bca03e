-- table.exec.mini-batch.enabled alone: Flink's optimizer refuses the plan (any statement).
CREATE TABLE page_views (view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.exec.mini-batch.enabled' = 'true';
EXPLAIN SELECT page, COUNT(*) AS hits FROM page_views GROUP BY page;
