-- An unknown kafka option: Flink 2.3.0's message (4.0.1 connector, measured) lists the connector's
-- options and the value format's (json.*) as supported.
CREATE TABLE k (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'foo' = 'bar');
EXPLAIN SELECT * FROM k;
