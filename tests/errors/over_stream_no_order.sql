-- Streaming OVER windows need an ORDER BY on one time attribute.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, COUNT(*) OVER (PARTITION BY username) AS n FROM clicks;
