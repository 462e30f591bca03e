-- OVER aggregates: running aggregates per user over the last 10 seconds (RANGE) and over the
-- current and two preceding rows (ROWS), in event-time order; each row is emitted once the
-- watermark passes its time.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, ts, COUNT(*) OVER w AS n_10s, MAX(url) OVER w AS max_url
FROM clicks
WINDOW w AS (PARTITION BY username ORDER BY ts RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW);
SELECT username, url, ts,
  COUNT(url) OVER (PARTITION BY username ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS n_last3
FROM clicks;
