-- Two-phase aggregation and the distinct split really run as planned and give the one-phase
-- results. Batch mode gives the reference. With all rows in one mini-batch the global aggregate
-- emits each key once, with the final values; with smaller batches (table.exec.mini-batch.size;
-- the latency of a day leaves the end of input the only time boundary) it emits once per key and
-- mini-batch, so the changelogs differ from the one-phase ones in their intermediate updates while
-- the last row of every key is the batch result.
CREATE TABLE page_views (
  view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_stats (page STRING, hits BIGINT, dwell BIGINT, avg_dwell BIGINT, min_dwell BIGINT,
  visitors BIGINT, PRIMARY KEY (page) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'stats');
SET 'sql-client.execution.result-mode' = 'tableau';

-- the references (batch)
SET 'execution.runtime-mode' = 'batch';
SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell, AVG(dwell_ms) AS avg_dwell, MIN(dwell_ms) AS min_dwell,
  COUNT(DISTINCT visitor_id) AS visitors, LISTAGG(CAST(visitor_id AS STRING), '') AS ids FROM page_views
WHERE view_id <= 20 GROUP BY page;
SELECT hits, COUNT(*) AS pages, SUM(dwell) AS dwell, MAX(dwell) AS top FROM (
  SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell FROM page_views WHERE view_id <= 24 GROUP BY page)
GROUP BY hits;
SELECT page, COUNT(DISTINCT visitor_id) AS visitors, COUNT(*) AS hits, MAX(visitor_id) AS top_visitor
FROM page_views WHERE view_id <= 20 GROUP BY page;
SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell, AVG(dwell_ms) AS avg_dwell, MIN(dwell_ms) AS min_dwell,
  COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;
SET 'execution.runtime-mode' = 'streaming';

SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';

-- two phases, mini-batches of 7 rows (the LISTAGG order is the arrival order, as in batch)
SET 'table.exec.mini-batch.size' = '7';
SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell, AVG(dwell_ms) AS avg_dwell, MIN(dwell_ms) AS min_dwell,
  COUNT(DISTINCT visitor_id) AS visitors, LISTAGG(CAST(visitor_id AS STRING), '') AS ids FROM page_views
WHERE view_id <= 20 GROUP BY page;

-- an aggregate over an updating aggregate: the outer local aggregate folds each -U/+U pair of a
-- mini-batch into one partial row, the outer global aggregate retracts (-D when a group empties)
SET 'table.exec.mini-batch.size' = '6';
SELECT hits, COUNT(*) AS pages, SUM(dwell) AS dwell, MAX(dwell) AS top FROM (
  SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell FROM page_views WHERE view_id <= 24 GROUP BY page)
GROUP BY hits;

-- the distinct split under mini-batch (IncrementalGroupAggregate), and without mini-batch
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.exec.mini-batch.size' = '7';
SELECT page, COUNT(DISTINCT visitor_id) AS visitors, COUNT(*) AS hits, MAX(visitor_id) AS top_visitor
FROM page_views WHERE view_id <= 20 GROUP BY page;
SET 'table.exec.mini-batch.enabled' = 'false';
SELECT page, COUNT(DISTINCT visitor_id) AS visitors, COUNT(*) AS hits, MAX(visitor_id) AS top_visitor
FROM page_views WHERE view_id <= 20 GROUP BY page;

-- all rows in one mini-batch: one row per key, the final values (split and two phases together)
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.size' = '1000';
SELECT page, COUNT(*) AS hits, SUM(dwell_ms) AS dwell, AVG(dwell_ms) AS avg_dwell, MIN(dwell_ms) AS min_dwell,
  COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;

-- into an upsert sink
SET 'table.dml-sync' = 'true';
INSERT INTO page_stats SELECT page, COUNT(*), SUM(dwell_ms), AVG(dwell_ms), MIN(dwell_ms), COUNT(DISTINCT visitor_id)
FROM page_views GROUP BY page;
