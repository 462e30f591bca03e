-- A column that does not exist.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT order_id, price FROM orders;
