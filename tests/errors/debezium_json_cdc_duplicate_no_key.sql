-- 'table.exec.source.cdc-events-duplicate' needs a PRIMARY KEY on every changelog source; Flink
-- checks it when it converts the source, also when the query's filter is always false.
CREATE TABLE orders (id INT, customer STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_orders.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
SELECT * FROM orders WHERE -2.75 IS NULL;
