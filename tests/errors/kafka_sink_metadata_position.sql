-- a query column that does not fit: with metadata columns in the sink table Flink 2.3 counts the
-- position from 1 (name is the third column; measured), without them from 0
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', name STRING, h MAP<STRING, BYTES> METADATA FROM 'headers') WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, TO_TIMESTAMP_LTZ(ms, 3), true, CAST(NULL AS MAP<STRING, BYTES>) FROM src;
