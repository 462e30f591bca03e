-- A malformed row stops the query with the file, line and column.
CREATE TABLE t (id INT, name STRING, qty INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/bad.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
SELECT 'not reached';
