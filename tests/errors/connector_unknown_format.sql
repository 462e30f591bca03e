-- An unknown format.
CREATE TABLE t (id INT) WITH ('connector' = 'filesystem', 'path' = '/tmp', 'format' = 'parquetx');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
