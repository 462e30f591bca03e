-- Without json.ignore-parse-errors a bad value stops the query with the line, file:line and field.
CREATE TABLE t (id INT, qty INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_bad.json', 'format' = 'json');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
SELECT 'not reached';
