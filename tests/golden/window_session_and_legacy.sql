-- SESSION windows, and the legacy GROUP BY TUMBLE syntax.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, window_start, window_end, COUNT(*) AS n
FROM TABLE(SESSION(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY username, window_start, window_end;
SELECT TUMBLE_START(ts, INTERVAL '15' SECOND) AS ws, TUMBLE_END(ts, INTERVAL '15' SECOND) AS we, COUNT(*) AS n
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '15' SECOND);
