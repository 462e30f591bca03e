-- An option the connector does not know.
CREATE TABLE t (id INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '5');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
