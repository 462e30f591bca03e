-- IN and NOT EXISTS subqueries are semi and anti joins.
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
SELECT name FROM users WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 900);
SELECT name FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.user_id AND o.amount > 100);
