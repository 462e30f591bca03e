-- The blackhole sink accepts everything and prints nothing.
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
CREATE TABLE bh (id BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
INSERT INTO bh SELECT order_id FROM orders;
