-- The filesystem connector without its required path.
CREATE TABLE t (id INT) WITH ('connector' = 'filesystem', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
