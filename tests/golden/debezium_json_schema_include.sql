-- 'debezium-json.schema-include': the events are under "payload" (Kafka Connect's JSON converter
-- with schemas enabled). With 'debezium-json.ignore-parse-errors' corrupt events are skipped (a line
-- without "payload", an unknown "op", an update without "before", a line that is not JSON) and a
-- value that does not convert reads as NULL.
CREATE TABLE scores (id INT, name STRING, score INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_payload.json', 'format' = 'debezium-json',
  'debezium-json.schema-include' = 'true', 'debezium-json.ignore-parse-errors' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM scores;
