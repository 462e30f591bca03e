-- Window Top-N: the two most active users per 20-second window.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC) AS rn FROM (
    SELECT window_start, window_end, username, COUNT(*) AS n
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND))
    GROUP BY window_start, window_end, username))
WHERE rn <= 2;
