-- COMPILE PLAN / EXECUTE PLAN with the mini-batch nodes: the written plan runs and gives what the
-- INSERT gives; a STATE_TTL hint reaches the global aggregate's state.
CREATE TABLE page_views (
  view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_stats (page STRING, hits BIGINT, dwell BIGINT, top_dwell BIGINT, PRIMARY KEY (page) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'stats');
CREATE TABLE page_visitors (page STRING, visitors BIGINT, hits BIGINT, PRIMARY KEY (page) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'visitors');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '60';
SET 'table.dml-sync' = 'true';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';
SET 'table.exec.mini-batch.size' = '100';
SET 'weir.exec.chunk-rows' = '30';

INSERT INTO page_stats SELECT page, COUNT(*), SUM(dwell_ms), MAX(dwell_ms) FROM page_views GROUP BY page;
COMPILE PLAN 'file://$TMP/stats.json' FOR
INSERT INTO page_stats SELECT page, COUNT(*), SUM(dwell_ms), MAX(dwell_ms) FROM page_views GROUP BY page;
EXECUTE PLAN 'file://$TMP/stats.json';

SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
INSERT INTO page_visitors SELECT page, COUNT(DISTINCT visitor_id), COUNT(*) FROM page_views GROUP BY page;
COMPILE PLAN 'file://$TMP/visitors.json' FOR
INSERT INTO page_visitors SELECT page, COUNT(DISTINCT visitor_id), COUNT(*) FROM page_views GROUP BY page;
EXECUTE PLAN 'file://$TMP/visitors.json';

-- the hint's TTL on the global aggregate (the job default elsewhere)
SET 'table.exec.state.ttl' = '1 h';
COMPILE PLAN 'file://$TMP/hinted.json' FOR
INSERT INTO page_stats SELECT /*+ STATE_TTL('pv' = '2d') */ page, COUNT(*), SUM(dwell_ms), MAX(dwell_ms)
FROM page_views pv GROUP BY page;
CREATE TABLE hinted_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/hinted.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM hinted_plan WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';
