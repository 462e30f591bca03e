-- weir demo: a streaming query over a CSV file, printed as Flink's SQL client prints it.
CREATE TABLE orders (
  order_id BIGINT,
  customer STRING,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = 'examples/data/orders.csv',
  'format' = 'csv'
);

SET 'sql-client.execution.result-mode' = 'tableau';

SELECT order_id, UPPER(customer) AS customer, amount, amount * 1.2 AS with_tax, ts
FROM orders
WHERE amount > 5;
