-- upsert-kafka takes its key from the PRIMARY KEY: 'key.fields' is not one of its options (Flink 2.3
-- lists it as unsupported; the whole message is Flink 2.3.0's with the 4.0.1 connector, measured:
-- the supported list names the formats' options too, key.csv.* and value.json.*)
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE kf (id INT, name STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_in', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json',
  'key.fields' = 'id');
SELECT * FROM kf;
