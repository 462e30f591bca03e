-- The print sink writes Flink's Row.toString lines with the print-identifier prefix.
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
CREATE TABLE out_t (id BIGINT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('connector' = 'print', 'print-identifier' = 'out');
INSERT INTO out_t SELECT order_id, amount, ts FROM orders WHERE order_id <= 3;
