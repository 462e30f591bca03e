-- A stateless filter and projection over a CSV file, streamed as a tableau.
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
SELECT order_id, amount * 2 AS doubled, ts FROM orders WHERE amount > 50;
