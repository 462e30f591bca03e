-- a metadata column named as its key, of a type not castable to it (Flink 2.3's message, measured)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, `headers` MAP<STRING, INT> METADATA) WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, MAP['a', 1] FROM src;
