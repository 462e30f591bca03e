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
  'format' = 'csv', 'csv.null-literal' = ''
);

SET 'sql-client.execution.result-mode' = 'tableau';

SELECT order_id, UPPER(customer) AS customer, amount, amount * 1.2 AS with_tax, ts
FROM orders
WHERE amount > 5;

-- Stateful: running totals per customer (updates arrive as -U/+U pairs).
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total
FROM orders
GROUP BY customer;

-- A two-minute tumbling window: one final row per window, emitted as the watermark passes it.
SELECT window_start, window_end, COUNT(*) AS orders, SUM(amount) AS revenue
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end;
