-- A view over a table, and a view over a view; DROP VIEW.
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
CREATE VIEW big_orders AS SELECT order_id, amount FROM orders WHERE amount >= 100;
CREATE TEMPORARY VIEW big_ids (id) AS SELECT order_id FROM big_orders;
SHOW VIEWS;
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM big_ids;
DROP VIEW big_ids;
SHOW TABLES;
