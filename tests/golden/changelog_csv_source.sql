-- The changelog-csv format replays a changelog: its first column is the row kind.
CREATE TABLE t (id INT, name STRING, qty INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/changes.csv', 'format' = 'changelog-csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, UPPER(name) AS name, qty * 10 AS qty10 FROM t;
