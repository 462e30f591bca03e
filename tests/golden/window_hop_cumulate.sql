-- HOP and CUMULATE windows, grouped by user.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, window_start, window_end, COUNT(*) AS n
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND))
GROUP BY username, window_start, window_end;
SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '30' SECOND))
GROUP BY window_start, window_end;
