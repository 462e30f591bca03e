-- Flink's Debezium JSON writer has no schema: 'debezium-json.schema-include' is refused for a sink.
CREATE TABLE out_t (id INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'debezium-json',
  'debezium-json.schema-include' = 'true');
INSERT INTO out_t VALUES (1);
