-- Window Top-N ranks by ROW_NUMBER only: RANK() and DENSE_RANK() partitioned by a window's
-- window_start / window_end are refused as in Flink 2.3 (a TableException at planning).
CREATE TABLE bids (item STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/bids_unused.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
EXPLAIN SELECT * FROM (
  SELECT *, DENSE_RANK() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS r
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) WHERE r <= 3;
