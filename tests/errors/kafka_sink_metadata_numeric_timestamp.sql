-- BIGINT METADATA FROM 'timestamp' passes the castability check, but the cast to the key's
-- TIMESTAMP_LTZ(3) fails as an explicit one does (Flink 2.3's message, measured)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, name STRING, ts BIGINT METADATA FROM 'timestamp') WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, name, ms FROM src;
