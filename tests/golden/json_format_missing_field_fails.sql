-- json.fail-on-missing-field: a member missing from a line fails the query (Flink's message).
CREATE TABLE t (id INT, name STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_types.json', 'format' = 'json',
  'json.fail-on-missing-field' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
