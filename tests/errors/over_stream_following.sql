-- Streaming OVER windows end at CURRENT ROW.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, COUNT(*) OVER (PARTITION BY username ORDER BY ts ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS n FROM clicks;
