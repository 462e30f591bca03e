-- A statement set runs several INSERTs as one job.
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
CREATE TABLE a_out (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'A');
CREATE TABLE b_out (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'B');
SET 'table.dml-sync' = 'true';
BEGIN STATEMENT SET;
INSERT INTO a_out SELECT order_id FROM orders WHERE order_id < 3;
INSERT INTO b_out SELECT order_id FROM orders WHERE order_id > 6;
END;
