-- An upsert sink (primary key) receives no -U; a retract sink receives -U/+U.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE per_user (user_id INT, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'upsert', 'sink.changelog-mode' = 'I,UA,D');
CREATE TABLE per_user_retract (user_id INT, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'retract');
SET 'table.dml-sync' = 'true';
INSERT INTO per_user SELECT user_id, COUNT(*) FROM orders GROUP BY user_id;
INSERT INTO per_user_retract SELECT user_id, COUNT(*) FROM orders GROUP BY user_id;
