-- With csv.ignore-parse-errors the malformed row is skipped and the rest is read.
CREATE TABLE t (id INT, name STRING, qty INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/bad.csv', 'format' = 'csv',
  'csv.ignore-parse-errors' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, name, qty FROM t;
