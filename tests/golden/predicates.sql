-- IN, BETWEEN, LIKE, IS NULL and three-valued logic.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '$DATA/orders.csv',
  'format' = 'csv', 'csv.null-literal' = ''
);
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT order_id, user_id IN (101, 103) AS in_set, amount BETWEEN 10 AND 100 AS mid,
  CAST(order_id AS STRING) LIKE '%1%' AS has1, amount IS NULL AS no_amount,
  (amount > 100 OR amount IS NULL) AND NOT (user_id = 104) AS flag
FROM orders WHERE order_id NOT IN (3, 4);
