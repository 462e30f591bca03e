-- Flink 2.3's filesystem source offers only the file.* metadata keys, not the format's (source.table...).
CREATE TABLE orders (id INT, customer STRING, tbl STRING METADATA FROM 'value.source.table' VIRTUAL) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_orders.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM orders;
