-- INSERT INTO a filesystem table, then read it back.
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
CREATE TABLE copy_t (id BIGINT, amount DECIMAL(10, 2)) WITH ('connector' = 'filesystem', 'path' = '$TMP/roundtrip', 'format' = 'csv', 'csv.null-literal' = '');
SET 'table.dml-sync' = 'true';
INSERT INTO copy_t SELECT order_id, amount FROM orders WHERE order_id IN (1, 2, 8);
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM copy_t;
