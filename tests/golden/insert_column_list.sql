-- INSERT with a column list fills the other columns with NULL.
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
CREATE TABLE o2 (id BIGINT, note STRING, amount DECIMAL(10, 2)) WITH ('connector' = 'print');
SET 'table.dml-sync' = 'true';
INSERT INTO o2 (amount, id) SELECT amount, order_id FROM orders WHERE order_id = 1;
