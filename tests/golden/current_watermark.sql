-- CURRENT_WATERMARK(rowtime): the watermark the evaluating Calc has received (NULL before the
-- first), e.g. to flag or drop late rows. One row per chunk, so each row sees the watermark of
-- the rows before it (ts - 3 s); alice's 10:00:02 row arrives behind it.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'weir.exec.chunk-rows' = '1';
SELECT username, ts, CURRENT_WATERMARK(ts) AS wm,
  CASE WHEN ts <= CURRENT_WATERMARK(ts) THEN 'late' END AS late
FROM clicks;
SELECT username, ts FROM clicks WHERE ts > CURRENT_WATERMARK(ts) OR CURRENT_WATERMARK(ts) IS NULL;
EXPLAIN SELECT username, ts FROM clicks WHERE ts > CURRENT_WATERMARK(ts) OR CURRENT_WATERMARK(ts) IS NULL;
DESCRIBE clicks;
