-- With 'debezium-json.schema-include' a line without "payload" is corrupt (Flink: a NullPointerException).
CREATE TABLE scores (id INT, name STRING, score INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_payload.json', 'format' = 'debezium-json',
  'debezium-json.schema-include' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM scores;
