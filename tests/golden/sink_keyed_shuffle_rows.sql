-- table.exec.sink.keyed-shuffle = FORCE at parallelism 2: the rows of each user reach the print
-- sink's subtask that owns the user's key group (the "n>" prefix), in the order of the input.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE by_user (user_id INT, order_id BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'print');
SET 'parallelism.default' = '2';
SET 'table.dml-sync' = 'true';
SET 'table.exec.sink.keyed-shuffle' = 'FORCE';
INSERT INTO by_user SELECT user_id, order_id FROM orders;
