-- table.exec.sink.keyed-shuffle: a keyBy on the sink's primary key in front of the writer. AUTO
-- (the default) adds it for an insert-only query when the sink runs at another parallelism
-- ('sink.parallelism'), FORCE whenever the sink has more than one subtask, NONE never (a rebalance
-- when the parallelisms differ). With FORCE at parallelism 2 each user's rows reach the writer
-- subtask that owns the user's key group.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE by_user (user_id INT, order_id BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'blackhole');
CREATE TABLE by_user3 (user_id INT, order_id BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'print', 'sink.parallelism' = '3');
SET 'parallelism.default' = '2';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO by_user3 SELECT user_id, order_id FROM orders;
SET 'table.exec.sink.keyed-shuffle' = 'NONE';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO by_user3 SELECT user_id, order_id FROM orders;
SET 'table.exec.sink.keyed-shuffle' = 'FORCE';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO by_user SELECT user_id, order_id FROM orders;
