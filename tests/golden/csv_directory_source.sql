-- A directory path reads every visible file in it, in name order.
CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/dir', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
