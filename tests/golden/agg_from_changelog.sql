-- An aggregate over a changelog source: updates and deletes retract earlier values.
CREATE TABLE t (id INT, name STRING, qty INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/changes.csv', 'format' = 'changelog-csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT SUM(qty) AS total, COUNT(*) AS n, MAX(qty) AS biggest FROM t;
