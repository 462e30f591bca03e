-- The plan that is explained is the plan that runs: EXPLAIN's JSON execution plan of an aggregate
-- INSERT into a primary-key sink lists Flink's operators (the exchange is an edge, the sink's
-- ConstraintEnforcer an operator of its own), and the job that runs (the -v report on stderr,
-- the REST vertices) has exactly those operators, numbered on through the session as Flink does.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE per_user (user_id INT, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED)
  WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO per_user SELECT user_id, COUNT(*) FROM orders GROUP BY user_id;
INSERT INTO per_user SELECT user_id, COUNT(*) FROM orders GROUP BY user_id;
