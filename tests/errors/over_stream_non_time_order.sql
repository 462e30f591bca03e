-- Streaming OVER windows must be ordered by a time attribute (batch mode runs any ORDER BY).
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, COUNT(*) OVER (PARTITION BY username ORDER BY url) AS n FROM clicks;
