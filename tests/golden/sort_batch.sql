-- Batch mode: Sort / SortLimit / Limit deliver the final rows in order.
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT order_id, amount FROM orders ORDER BY amount DESC LIMIT 3;
-- NULLs first ascending, last descending (Flink's default null ordering)
SELECT order_id, amount FROM orders ORDER BY amount;
SELECT order_id, amount FROM orders ORDER BY amount DESC;
SELECT order_id, amount FROM orders ORDER BY amount DESC NULLS FIRST OFFSET 5 ROWS;
-- ordinal, alias, expression not selected, FETCH FIRST
SELECT order_id FROM orders ORDER BY 1 DESC FETCH FIRST 2 ROWS ONLY;
SELECT order_id AS o, amount * 2 AS a2 FROM orders ORDER BY a2 LIMIT 3;
SELECT order_id FROM orders ORDER BY user_id DESC, amount * -1 LIMIT 4;
-- aggregates (their updates are final before the sort), DISTINCT, VALUES, UNION ALL
SELECT user_id, COUNT(*) AS n, SUM(amount) AS s FROM orders GROUP BY user_id ORDER BY COUNT(*) DESC, user_id;
SELECT DISTINCT user_id FROM orders ORDER BY user_id DESC;
SELECT * FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS t(x, y) ORDER BY x DESC;
SELECT user_id FROM orders UNION ALL SELECT order_id FROM orders ORDER BY 1 LIMIT 3;
-- LIMIT / OFFSET without ORDER BY, and LIMIT in a subquery
SELECT * FROM orders LIMIT 2 OFFSET 3;
SELECT * FROM (SELECT * FROM orders ORDER BY amount DESC LIMIT 3) WHERE user_id > 102;
EXPLAIN SELECT order_id, amount FROM orders ORDER BY amount DESC LIMIT 3;
EXPLAIN SELECT order_id, amount FROM orders ORDER BY amount;
EXPLAIN SELECT * FROM orders LIMIT 2 OFFSET 1;
