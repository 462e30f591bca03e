-- Long strings are cut to the maximum column width; East-Asian characters count double.
CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/cjk.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
-- the old key is accepted but no longer read (Flink 2.3)
SET 'sql-client.display.max-column-width' = '50';
SELECT * FROM t;
SET 'table.display.max-column-width' = '8';
SELECT * FROM t;
