-- The print connector cannot be read.
CREATE TABLE t (id INT) WITH ('connector' = 'print');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
