-- CUMULATE windows share a running accumulator across their slices (Flink's
-- CumulativeSliceAssigner): LAST_VALUE, whose Flink function has no merge, is refused as in
-- Flink 2.3 (measured) when the job starts.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, window_end, LAST_VALUE(url) AS last_url
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '30' SECOND))
GROUP BY username, window_start, window_end;
