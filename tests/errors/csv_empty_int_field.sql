-- Flink's csv format has no implicit NULL: an empty INT field fails the job with Java's message
-- (measured on Flink 2.3); 'csv.null-literal' = '' or 'csv.ignore-parse-errors' make it NULL.
CREATE TABLE t (id INT, n INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/csv_empty_fields.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, s FROM t;
SELECT * FROM t;
