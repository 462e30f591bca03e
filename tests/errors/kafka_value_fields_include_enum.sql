-- value.fields-include takes ALL or EXCEPT_KEY: Flink 2.3.0's enum message (measured).
CREATE TABLE k (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'value.fields-include' = 'nope');
EXPLAIN SELECT * FROM k;
