-- 'sink.buffer-flush.interval' is a duration, read for a query of the table too: Flink 2.3.0's
-- TimeUtils message (measured, 4.0.1 connector).
CREATE TABLE k (id INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't',
  'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'json', 'value.format' = 'json',
  'sink.buffer-flush.interval' = 'abc');
EXPLAIN SELECT * FROM k;
