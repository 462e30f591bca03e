-- LEAD is not supported in a streaming OVER window (Flink's AggFunctionFactory).
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, LEAD(url) OVER (PARTITION BY username ORDER BY ts) AS nxt FROM clicks;
