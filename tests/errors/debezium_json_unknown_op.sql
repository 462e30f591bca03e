-- A corrupt Debezium event (an unknown "op") stops the query with the line and file:line.
CREATE TABLE people (id INT, name STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_bad.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM people;
SELECT 'not reached';
