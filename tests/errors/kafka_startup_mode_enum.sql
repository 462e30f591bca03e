-- A scan.startup.mode that is not one of the enum's values: Flink 2.3.0's ConfigOption enum message (measured).
CREATE TABLE k (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'scan.startup.mode' = 'nope');
EXPLAIN SELECT * FROM k;
