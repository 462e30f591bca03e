-- A join over an aggregate: the joined row is retracted and re-emitted as the total changes.
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
SELECT u.name, t.total FROM users u JOIN (SELECT user_id, SUM(amount) AS total FROM orders GROUP BY user_id) t ON u.user_id = t.user_id;
