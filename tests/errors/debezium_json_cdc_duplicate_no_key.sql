-- 'table.exec.source.cdc-events-duplicate' needs a PRIMARY KEY on every changelog source.
CREATE TABLE orders (id INT, customer STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_orders.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
SELECT * FROM orders;
