-- upsert-kafka needs a PRIMARY KEY (Flink 2.3's message, measured with its Kafka SQL connector)
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE nopk (id INT, name STRING, amount INT) WITH ('connector' = 'upsert-kafka', 'topic' = 'u_in',
  'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
SELECT * FROM nopk;
