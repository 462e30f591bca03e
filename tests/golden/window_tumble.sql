-- A TUMBLE window aggregate: one +I per window, emitted when the watermark passes its end (the
-- last windows close on the final watermark at the end of the file). With the default chunking the
-- whole file is read before the first watermark, so the out-of-order row still counts; with
-- watermarks after every row ('weir.exec.chunk-rows' = '1', Flink's on-event emission) it is late
-- and dropped.
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
