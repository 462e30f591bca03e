-- Sub-plan reuse (table.optimizer.reuse-sub-plan-enabled, reuse-source-enabled): equal sub-plans
-- are planned once; the execution plan marks the first (reuse_id) and refers to it (Reused), the
-- job runs it once and feeds every consumer.
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
CREATE TABLE plain (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH (
  'connector' = 'filesystem',
  'path' = '$DATA/orders.csv',
  'format' = 'csv', 'csv.null-literal' = ''
);
CREATE TABLE a_out (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'A');
CREATE TABLE b_out (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'B');
CREATE VIEW big AS SELECT user_id, amount FROM plain WHERE amount > 10;
SET 'sql-client.execution.result-mode' = 'tableau';
-- a self-join: one scan and exchange feed both sides
EXPLAIN SELECT a.order_id, b.order_id FROM plain a JOIN plain b ON a.user_id = b.user_id;
SELECT a.order_id AS x, b.order_id AS y FROM plain a JOIN plain b ON a.user_id = b.user_id WHERE a.order_id < b.order_id;
-- UNION ALL of two equal aggregates: the aggregate is shared
EXPLAIN SELECT user_id, COUNT(*) FROM plain GROUP BY user_id UNION ALL SELECT user_id, COUNT(*) FROM plain GROUP BY user_id;
SELECT user_id, COUNT(*) AS n FROM plain GROUP BY user_id UNION ALL SELECT user_id, COUNT(*) FROM plain GROUP BY user_id;
-- a view used twice
EXPLAIN SELECT a.user_id, a.amount, b.amount FROM big a JOIN big b ON a.user_id = b.user_id;
-- a statement set: the watermark assigner is its own block, both INSERTs refer to it
EXPLAIN STATEMENT SET BEGIN
INSERT INTO a_out SELECT order_id FROM orders WHERE order_id < 3;
INSERT INTO b_out SELECT order_id FROM orders WHERE order_id > 6;
END;
SET 'table.dml-sync' = 'true';
BEGIN STATEMENT SET;
INSERT INTO a_out SELECT order_id FROM orders WHERE order_id < 3;
INSERT INTO b_out SELECT order_id FROM orders WHERE order_id > 6;
END;
-- source reuse off: scans (and exchanges over them) are not shared, other nodes still are
SET 'table.optimizer.reuse-source-enabled' = 'false';
EXPLAIN SELECT a.order_id, b.order_id FROM plain a JOIN plain b ON a.user_id = b.user_id;
EXPLAIN SELECT user_id, COUNT(*) FROM plain GROUP BY user_id UNION ALL SELECT user_id, COUNT(*) FROM plain GROUP BY user_id;
-- sub-plan reuse off: nothing is shared
SET 'table.optimizer.reuse-sub-plan-enabled' = 'false';
SET 'table.optimizer.reuse-source-enabled' = 'true';
EXPLAIN SELECT user_id, COUNT(*) FROM plain GROUP BY user_id UNION ALL SELECT user_id, COUNT(*) FROM plain GROUP BY user_id;
SELECT a.order_id AS x, b.order_id AS y FROM plain a JOIN plain b ON a.user_id = b.user_id WHERE a.order_id < b.order_id;
-- at parallelism 2: the shared scan and exchange feed both sides in every subtask
SET 'table.optimizer.reuse-sub-plan-enabled' = 'true';
SET 'parallelism.default' = '2';
SELECT a.order_id AS x, b.order_id AS y FROM plain a JOIN plain b ON a.user_id = b.user_id WHERE a.order_id < b.order_id;
SELECT user_id, COUNT(*) AS n FROM plain GROUP BY user_id UNION ALL SELECT user_id, COUNT(*) FROM plain GROUP BY user_id;
