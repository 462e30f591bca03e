-- Two-phase aggregation under mini-batch, read from the plan (the "don't trust the configuration,
-- read the plan" steps of the plans lesson, with our own tables): TWO_PHASE alone changes nothing,
-- the three mini-batch options bring MiniBatchAssigner, LocalGroupAggregate and
-- GlobalGroupAggregate (agg-phase-strategy AUTO), ONE_PHASE keeps one GroupAggregate (with the
-- assigner and Flink's advice), and the compiled plan keeps state only in the global aggregate.
CREATE TABLE page_views (
  view_id BIGINT, page STRING, visitor_id INT, dwell_ms BIGINT, viewed_at TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/page_views.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE page_stats (page STRING, view_count BIGINT, total_dwell BIGINT, avg_dwell BIGINT, max_dwell BIGINT)
  WITH ('connector' = 'blackhole');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '200';

-- TWO_PHASE without mini-batch: still one GroupAggregate, no warning
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
EXPLAIN SELECT page, COUNT(*) AS view_count FROM page_views WHERE dwell_ms > 0 GROUP BY page;
RESET 'table.optimizer.agg-phase-strategy';

-- the three mini-batch options, agg-phase-strategy left at AUTO
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 s';
SET 'table.exec.mini-batch.size' = '500';
EXPLAIN SELECT page, COUNT(*) AS view_count FROM page_views WHERE dwell_ms > 0 GROUP BY page;

EXPLAIN CHANGELOG_MODE SELECT page, COUNT(*) AS view_count, SUM(dwell_ms) AS total_dwell, AVG(dwell_ms) AS avg_dwell,
  MAX(dwell_ms) AS max_dwell, COUNT(DISTINCT visitor_id) AS visitors FROM page_views GROUP BY page;

-- a global aggregate (no GROUP BY): Exchange(distribution=[single])
EXPLAIN SELECT COUNT(*) AS view_count, MIN(dwell_ms) AS min_dwell FROM page_views;

-- an aggregate over an updating input: the local aggregate counts records (COUNT_RETRACT(*))
EXPLAIN SELECT view_count, COUNT(*) AS pages, SUM(total) AS dwell FROM (
  SELECT page, COUNT(*) AS view_count, SUM(dwell_ms) AS total FROM page_views GROUP BY page) GROUP BY view_count;

-- LISTAGG merges its (accDelimiter, concatAcc) accumulators; FIRST_VALUE cannot be merged: one
-- GroupAggregate, still behind the assigner
EXPLAIN SELECT page, LISTAGG(CAST(visitor_id AS STRING)) AS visitors FROM page_views GROUP BY page;
EXPLAIN SELECT page, FIRST_VALUE(visitor_id) AS first_visitor, COUNT(*) AS view_count FROM page_views GROUP BY page;

-- ONE_PHASE: the assigner stays, the aggregate is not split, and the advice says why
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXPLAIN PLAN_ADVICE SELECT page, COUNT(*) AS view_count FROM page_views GROUP BY page;
RESET 'table.optimizer.agg-phase-strategy';

-- where the state lives: globalGroupAggregateState, none for the local aggregate or the assigner
COMPILE PLAN 'file://$TMP/two-phase.json' FOR
INSERT INTO page_stats SELECT page, COUNT(*), SUM(dwell_ms), AVG(dwell_ms), MAX(dwell_ms) FROM page_views GROUP BY page;
CREATE TABLE two_phase_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/two-phase.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM two_phase_plan
WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%' OR line LIKE '%"interval"%'
   OR line LIKE '%"mode"%' OR line LIKE '%"description"%' OR line LIKE '%"table.exec.mini-batch%';
