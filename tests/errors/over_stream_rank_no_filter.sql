-- A ranking function without a Top-N filter is a streaming OVER window: ordered ascending by a time attribute.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, ROW_NUMBER() OVER (PARTITION BY username ORDER BY url DESC) AS rn FROM clicks;
