-- Projection pruning as Flink's optimizer does it (src/plan/prune_rules.c): a Calc over a join
-- cuts both inputs to the used columns (FlinkProjectJoinTransposeRule), through the watermark
-- assigner (ProjectWatermarkAssignerTransposeRule) and a window TVF
-- (ProjectWindowTableFunctionTransposeRule); unused aggregate calls disappear
-- (PruneAggregateCallRule); a Top-N / deduplication gets a Calc of the columns it needs below its
-- Exchange (CalcRankTransposeRule). The results are those of the unpruned query.
CREATE TABLE orders (
  order_id BIGINT, user_id BIGINT, amount DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE users (user_id BIGINT, name STRING, region STRING, active BOOLEAN)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/users.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'streaming';

-- the MIN/SUM results are not used: GroupAggregate(select=[user_id]) and no Calc after the join
EXPLAIN SELECT o.user_id, u.name FROM
  (SELECT user_id, MIN(amount) AS lo, SUM(amount) AS total FROM orders GROUP BY user_id) o
  JOIN users u ON o.user_id = u.user_id;
SELECT o.user_id, u.name FROM
  (SELECT user_id, MIN(amount) AS lo, SUM(amount) AS total FROM orders GROUP BY user_id) o
  JOIN users u ON o.user_id = u.user_id;

-- one of three aggregate results used (and one in the filter)
EXPLAIN SELECT user_id, n FROM (
  SELECT user_id, COUNT(*) AS n, MAX(amount) AS hi, SUM(amount) AS total FROM orders GROUP BY user_id)
WHERE total > 50;
SELECT user_id, n FROM (
  SELECT user_id, COUNT(*) AS n, MAX(amount) AS hi, SUM(amount) AS total FROM orders GROUP BY user_id)
WHERE total > 50;

-- Top-N: Rank(select=[user_id, amount]) over Calc(select=[user_id, amount]) before the Exchange
EXPLAIN SELECT user_id, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 1;
SELECT user_id, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 1;

-- window Top-N: the WindowTableFunction's unused columns go before the Exchange
EXPLAIN SELECT window_start, user_id, amount, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) WHERE rn <= 2;
SELECT window_start, user_id, amount, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) WHERE rn <= 2;

-- window join: each input keeps the columns the join and the select use
EXPLAIN SELECT L.window_start, L.user_id, L.amount, R.amount AS other FROM
  (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) L JOIN
  (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) R
  ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end
  AND L.order_id < R.order_id;
SELECT L.window_start, L.user_id, L.amount, R.amount AS other FROM
  (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) L JOIN
  (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) R
  ON L.user_id = R.user_id AND L.window_start = R.window_start AND L.window_end = R.window_end
  AND L.order_id < R.order_id;

-- an outer join with a filter above it: the filter's columns stay
SELECT u.name, o.amount FROM users u LEFT JOIN orders o ON u.user_id = o.user_id WHERE u.region <> 'US';
