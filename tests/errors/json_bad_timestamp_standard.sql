-- An unknown json.timestamp-format.standard is rejected with Flink's message.
CREATE TABLE t (id INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/json_types.json', 'format' = 'json',
  'json.timestamp-format.standard' = 'RFC-3339');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
