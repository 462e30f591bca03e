-- Mini-batch changes the changelog as in Flink: the operators buffer their input per key until
-- the MiniBatchAssigner's boundary (allow-latency), table.exec.mini-batch.size rows or the end of
-- a bounded input, and then emit once per key, keys in the order of Flink's bundle (a HashMap).
-- The latency is one day so that the end of input is the only time boundary.
CREATE TABLE orders (id INT, customer STRING, amount INT, pt AS PROCTIME())
  WITH ('connector' = 'filesystem', 'path' = '$DATA/mb_orders.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';

-- without mini-batch: one change per row
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;

SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';
SET 'table.exec.mini-batch.size' = '1000';

-- one batch: a single +I per key (GroupAggregate)
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;

-- the same in two phases (LocalGroupAggregate / GlobalGroupAggregate)
RESET 'table.optimizer.agg-phase-strategy';
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;

-- batches of 4 rows: once per key and batch
SET 'table.exec.mini-batch.size' = '4';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;

-- an aggregate of an aggregate: retractions within a batch cancel, a group that empties is -D
SELECT orders, COUNT(*) AS customers, MAX(total) AS top FROM (
  SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer)
GROUP BY orders;

-- two phases with batches of 4 rows
RESET 'table.optimizer.agg-phase-strategy';
SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;

-- the distinct split (IncrementalGroupAggregate)
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SELECT customer, COUNT(DISTINCT amount) AS amounts, MAX(amount) AS top FROM orders GROUP BY customer;
RESET 'table.optimizer.distinct-agg.split.enabled';

-- deduplication on processing time: the last row of a key in a batch, or its first
SELECT id, customer, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt DESC) AS rn FROM orders) WHERE rn = 1;
SELECT id, customer, amount FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt ASC) AS rn FROM orders) WHERE rn = 1;
