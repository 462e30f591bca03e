-- sink.partitioner other than default / fixed / round-robin is a Java class name: Flink 2.3.0 fails
-- loading it (the client prints the root cause, measured: java.lang.ClassNotFoundException: nope).
CREATE TABLE src (id INT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:9',
  'format' = 'json', 'sink.partitioner' = 'nope');
EXPLAIN INSERT INTO k SELECT * FROM src;
