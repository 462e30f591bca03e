-- HOP and CUMULATE window aggregates keep one accumulator per slice and merge the slices of a
-- window when it fires, so every aggregate function needs a merge. FIRST_VALUE / LAST_VALUE have
-- none: Flink 2.3 refuses the job when it generates the aggregate's code (measured), for the
-- window TVF and for the legacy GROUP BY HOP alike; TUMBLE needs no merge and runs.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, window_start, FIRST_VALUE(url) AS first_url
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
SELECT username, window_start, FIRST_VALUE(url) AS first_url
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND))
GROUP BY username, window_start, window_end;
