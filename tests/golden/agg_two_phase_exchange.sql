-- What crosses the exchange (the -v report on stderr): one-phase, every row of the input (60);
-- two phases, one partial-accumulator row per key and mini-batch (batches of 20 rows,
-- table.exec.mini-batch.size: 15 rows, which the global aggregate takes in one batch of its own and
-- so emits once per key); the distinct split sends one row per key and bucket to the
-- IncrementalGroupAggregate, and one per key and mini-batch on to the global aggregate.
-- agg_two_phase_results compares the results.
CREATE TABLE page_views (
  view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_hits (page STRING, hits BIGINT, visitors BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';
SET 'table.exec.mini-batch.size' = '20';

SET 'table.exec.mini-batch.enabled' = 'false';
INSERT INTO page_hits SELECT page, COUNT(*), COUNT(DISTINCT visitor_id) FROM page_views GROUP BY page;

SET 'table.exec.mini-batch.enabled' = 'true';
INSERT INTO page_hits SELECT page, COUNT(*), COUNT(DISTINCT visitor_id) FROM page_views GROUP BY page;

SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
INSERT INTO page_hits SELECT page, COUNT(*), COUNT(DISTINCT visitor_id) FROM page_views GROUP BY page;
