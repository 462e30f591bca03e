-- A literal of the select list that is a key of GROUPING SETS / ROLLUP is that key: NULL in the
-- sets without it (found by the differential tester). Without grouping sets it stays a literal.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT 7 AS g0, 3 AS g1, COUNT(*) AS n FROM orders GROUP BY ROLLUP(7, 3);
SELECT DATE '2020-06-14' AS d, 'x' AS s, COUNT(*) AS n FROM orders GROUP BY GROUPING SETS (DATE '2020-06-14', 'x');
SELECT 7 AS g0, COUNT(*) AS n FROM orders GROUP BY 7;
