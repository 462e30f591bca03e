-- 'scan.topic-partition-discovery.interval' is a duration: Flink 2.3.0's TimeUtils message with the
-- ISO-8601 attempt (measured, 4.0.1 connector).
CREATE TABLE k (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'scan.topic-partition-discovery.interval' = 'abc');
EXPLAIN SELECT * FROM k;
