-- An unknown connector.
CREATE TABLE t (id INT) WITH ('connector' = 'kafkaa');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
