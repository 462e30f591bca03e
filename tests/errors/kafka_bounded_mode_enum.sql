-- 'earliest-offset' is a startup mode, not a bounded one: Flink 2.3.0's enum message (measured).
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE k (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'scan.bounded.mode' = 'earliest-offset');
EXPLAIN SELECT * FROM k;
