-- a metadata column whose type cannot be cast to its key's: Flink 2.3's message names the key
-- when the column is named otherwise (measured)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, name STRING, ts BOOLEAN METADATA FROM 'timestamp') WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, name, true FROM src;
