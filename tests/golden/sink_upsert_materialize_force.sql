-- table.exec.sink.upsert-materialize = FORCE puts a SinkMaterializer (behind a keyBy on the
-- primary key, after the ConstraintEnforcer) in front of every sink with a primary key, also for an
-- insert-only query: the second order of a user is an update of that user's row. NONE (and AUTO for
-- an insert-only query) writes the rows as they come.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE last_order (user_id INT, order_id BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'mat');
SET 'table.dml-sync' = 'true';
SET 'table.exec.sink.upsert-materialize' = 'FORCE';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO last_order SELECT user_id, order_id FROM orders;
INSERT INTO last_order SELECT user_id, order_id FROM orders;
SET 'table.exec.sink.upsert-materialize' = 'NONE';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO last_order SELECT user_id, order_id FROM orders;
INSERT INTO last_order SELECT user_id, order_id FROM orders;
