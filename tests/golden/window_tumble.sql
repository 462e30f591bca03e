-- A TUMBLE window aggregate: one +I per window, emitted when the watermark passes its end (the
-- last windows close on the final watermark at the end of the file). As in Flink, the watermark
-- follows every row, so the out-of-order row is late and dropped, whatever 'weir.exec.chunk-rows' is
-- (both queries print Flink 2.3's rows).
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT window_start, window_end, COUNT(*) AS clicks, COUNT(DISTINCT username) AS users
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
SET 'weir.exec.chunk-rows' = '1';
SELECT window_start, window_end, COUNT(*) AS clicks, COUNT(DISTINCT username) AS users
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
