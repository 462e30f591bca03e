-- UNION ALL of two queries over the same table, with a type widened to the common type.
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
SELECT order_id, CAST(user_id AS BIGINT) AS k FROM orders WHERE order_id <= 2
UNION ALL
SELECT user_id, order_id FROM orders WHERE order_id >= 7;
