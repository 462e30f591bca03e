-- CASE, CAST, TRY_CAST, COALESCE, NULLIF, IF and IS DISTINCT FROM.
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
SELECT order_id,
  CASE WHEN amount IS NULL THEN 'none' WHEN amount > 1000 THEN 'large' ELSE 'small' END AS size,
  CAST(amount AS INT) AS whole,
  TRY_CAST('x' || CAST(order_id AS STRING) AS INT) AS bad_cast,
  COALESCE(amount, 0) AS amt,
  NULLIF(user_id, 101) AS not_101,
  IF(user_id = 102, 'bob', 'other') AS who,
  amount IS DISTINCT FROM NULL AS has_amount
FROM orders;
