-- A value that does not convert to its column stops the query, naming the row member and column.
CREATE TABLE orders (id INT, customer STRING, amount INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_orders.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM orders;
