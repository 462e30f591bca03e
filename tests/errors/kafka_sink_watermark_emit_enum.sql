-- The scan.watermark.* options are read for a sink too (Flink 2.3.0, measured, 4.0.1 connector).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE k (v INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'scan.watermark.emit.strategy' = 'bogus');
EXPLAIN INSERT INTO k SELECT v FROM src;
