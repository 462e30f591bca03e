-- Inner and left joins of orders and users.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE users (user_id INT, name STRING, region STRING, active BOOLEAN)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/users.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT o.order_id, u.name FROM orders o JOIN users u ON o.user_id = u.user_id WHERE o.amount > 50;
SELECT u.name, o.order_id FROM users u LEFT JOIN orders o ON u.user_id = o.user_id AND o.amount > 1000;
