-- Two-phase window aggregation (Flink's TwoStageOptimizedWindowAggregateRule): under the default
-- table.optimizer.agg-phase-strategy (AUTO) and under TWO_PHASE, a row-time TUMBLE / HOP /
-- CUMULATE aggregation whose calls all merge is planned as LocalWindowAggregate (partial
-- accumulators per key and slice, no state) -> Exchange -> GlobalWindowAggregate (merges them
-- into the windows). ONE_PHASE, processing-time windows, SESSION windows and calls without a merge
-- (FIRST_VALUE) keep the single WindowAggregate. The results are the one-phase results, also at
-- parallelism 2. Chunks of 2 rows let the watermark advance between them: the late click (alice
-- at 10:00:02, behind the watermark 10:00:19) is dropped by the global aggregate, as Flink's local
-- aggregate drops nothing.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'weir.exec.chunk-rows' = '2';

-- the default strategy (AUTO): two phases
EXPLAIN SELECT username, window_start, COUNT(*) AS n, COUNT(DISTINCT url) AS urls, MAX(ts) AS last_click
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
SELECT username, window_start, COUNT(*) AS n, COUNT(DISTINCT url) AS urls, MAX(ts) AS last_click
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;

-- ONE_PHASE: one WindowAggregate, the same results
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXPLAIN SELECT username, window_start, COUNT(*) AS n, COUNT(DISTINCT url) AS urls, MAX(ts) AS last_click
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
SELECT username, window_start, COUNT(*) AS n, COUNT(DISTINCT url) AS urls, MAX(ts) AS last_click
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;

-- TWO_PHASE: HOP (slices of the slide) and CUMULATE (slices of the step) without keys, the
-- window_time property read above the aggregate
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
EXPLAIN SELECT window_start, window_end, window_time, COUNT(*) AS n, SUM(CHAR_LENGTH(url)) AS chars
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end, window_time;
SELECT window_start, window_end, window_time, COUNT(*) AS n, SUM(CHAR_LENGTH(url)) AS chars
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end, window_time;
SELECT window_start, window_end, COUNT(*) AS n, MIN(username) AS first_name
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY window_start, window_end;

-- processing-time windows and FIRST_VALUE (no merge) stay one-phase
EXPLAIN SELECT username, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
EXPLAIN SELECT username, window_start, FIRST_VALUE(url) AS first_url
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;

-- windows over windows: the second aggregate reads attached windows (WindowAttached on the
-- $window_end its local aggregate appends); at parallelism 2, local aggregates in both subtasks
CREATE VIEW per_user AS
SELECT username, window_start AS ws, window_end AS we, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
EXPLAIN SELECT ws, we, COUNT(*) AS users, SUM(n) AS clicks, MAX(n) AS top FROM per_user GROUP BY ws, we;
SET 'parallelism.default' = '2';
SELECT ws, we, COUNT(*) AS users, SUM(n) AS clicks, MAX(n) AS top FROM per_user GROUP BY ws, we;
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT ws, we, COUNT(*) AS users, SUM(n) AS clicks, MAX(n) AS top FROM per_user GROUP BY ws, we;
