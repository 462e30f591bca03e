-- a kafka sink cannot write 'offset' (a read-only key): Flink 2.3's message listing the writable
-- keys (measured with its Kafka SQL connector; the same for upsert-kafka)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, name STRING, o BIGINT METADATA FROM 'offset') WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
INSERT INTO k SELECT id, name, ms FROM src;
