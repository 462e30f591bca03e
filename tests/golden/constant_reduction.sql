-- Constant expressions are reduced at planning time as Flink's planner reduces them (Calcite's
-- ReduceExpressionsRule): the optimized plans hold the literal each expression evaluates to, typed
-- as the expression (a nullable one as CAST(<literal> AS <type>)), and the results are the same as
-- computing them per row. See docs/flink-conformance.md, "Constant reduction".
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT order_id, user_id + (1 + 2) AS u, amount * (1.5 + 1) AS scaled, UPPER('ab') || 'c' AS tag,
  CAST('2024-03-01' AS DATE) AS d, SUBSTRING('abcdef', 2, 3) AS sub, 1e0 / 4e0 AS q
FROM orders WHERE TRUE AND order_id > 2 + 3 AND amount IS NOT NULL;
SELECT order_id, CASE WHEN amount > 100 THEN 1 + 1 ELSE 2 * 3 END AS c, user_id IN (100 + 1, 102) AS k,
  amount > 1 OR TRUE AS always
FROM orders WHERE 1 = 1;
EXPLAIN SELECT order_id, user_id + (1 + 2) AS u, amount * (1.5 + 1) AS scaled, UPPER('ab') || 'c' AS tag,
  SUBSTRING('abcdef', 2, 3) AS sub, 1e0 / 4e0 AS q
FROM orders WHERE TRUE AND order_id > 2 + 3 AND amount IS NOT NULL;
EXPLAIN SELECT order_id, CASE WHEN amount > 100 THEN 1 + 1 ELSE 2 * 3 END AS c, TO_TIMESTAMP('2024-03-01 10:15:30') AS t,
  0.1e0 + 0.2e0 AS dsum, TIME '10:00:00.5' AS tm, TO_TIMESTAMP_LTZ(0, 3) AS l, CHAR_LENGTH('abcd') * 2 AS n
FROM orders WHERE 1 = 1;
