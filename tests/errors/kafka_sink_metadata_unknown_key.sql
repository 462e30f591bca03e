-- an unknown metadata key in a kafka sink table (Flink 2.3's message, measured)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, name STRING, o BIGINT METADATA FROM 'nope') WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, name, ms FROM src;
