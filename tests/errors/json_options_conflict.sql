-- json.fail-on-missing-field and json.ignore-parse-errors cannot both be true (Flink's message).
CREATE TABLE t (id INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/json_types.json', 'format' = 'json',
  'json.fail-on-missing-field' = 'true', 'json.ignore-parse-errors' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
