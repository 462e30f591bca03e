-- OVER aggregates of one SELECT must share their window, as in Flink.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT COUNT(*) OVER (PARTITION BY username ORDER BY ts) AS a,
  COUNT(*) OVER (PARTITION BY url ORDER BY ts) AS b FROM clicks;
