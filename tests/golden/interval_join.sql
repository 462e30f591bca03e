-- Flink 2.3 prints this join's paypal row or not depending on how far its orders source has got when
-- the late payment arrives (two bounded sources race); weir reads the orders first, so the late payment
-- finds order 6 already expired, as Flink does once its orders watermark has passed 09:15.
-- An interval join: payments within 3 minutes after their order.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE payments (pay_id INT, order_id BIGINT, pay_method STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/payments.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT o.order_id, p.pay_method, p.ts FROM orders o JOIN payments p ON o.order_id = p.order_id
WHERE p.ts BETWEEN o.ts AND o.ts + INTERVAL '3' MINUTE;
