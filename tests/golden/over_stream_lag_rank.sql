-- Streaming OVER windows with LAG and the ranking functions (Flink's LagAggFunction,
-- RowNumber/Rank/DenseRankAggFunction in the streaming OverAggregate): rows wait until the
-- watermark (ts - 5 s) passes them and are processed in time order; rows behind the watermark
-- (k=1 at 00:00:10) are dropped. LAG's frame is RANGE UNBOUNDED PRECEDING, so the two rows of
-- 00:00:03 are accumulated together and share one value (as in Flink's testLagFunction).
CREATE TABLE ev (
  k INT, b BIGINT, ts TIMESTAMP(3),
  pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/lag_events.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'weir.exec.chunk-rows' = '1';
SELECT k, b, ts,
  LAG(b) OVER (PARTITION BY k ORDER BY ts) AS l1,
  LAG(b, 2) OVER (PARTITION BY k ORDER BY ts) AS l2,
  LAG(b, 2, CAST(10086 AS BIGINT)) OVER (PARTITION BY k ORDER BY ts) AS l2d
FROM ev;
EXPLAIN SELECT k, b, LAG(b) OVER (PARTITION BY k ORDER BY ts) AS l1, COUNT(*) OVER (PARTITION BY k ORDER BY ts) AS c
FROM ev;
SELECT k, b, LAG(b) OVER w AS l1, COUNT(*) OVER w AS c, SUM(b) OVER w AS s
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts);
-- ROW_NUMBER is a ROWS frame (one number per row), RANK / DENSE_RANK RANGE frames (peers of one
-- time share a rank); without a filter on them this is an OverAggregate, not a Top-N
SELECT k, b, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM ev;
SELECT k, b, ts, RANK() OVER (PARTITION BY k ORDER BY ts) AS r,
  DENSE_RANK() OVER (PARTITION BY k ORDER BY ts) AS dr FROM ev;
EXPLAIN SELECT k, b, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM ev;
EXPLAIN SELECT k, b, RANK() OVER (ORDER BY ts) AS r FROM ev;
-- processing time: each row at once, in arrival order
SELECT k, b, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt) AS rn FROM ev;
SELECT k, b, LAG(b, 1, b * 10) OVER (PARTITION BY k ORDER BY pt) AS l1 FROM ev;
