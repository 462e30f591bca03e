-- A constant-false condition empties its input, as Flink's planner prunes it (Values(tuples=[[]])),
-- and a global aggregate over that empty input returns its one row (COUNT 0, the others NULL),
-- in streaming too; the same aggregate over rows that merely fail a filter returns nothing.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT COUNT(*) AS n, SUM(amount) AS total, MAX(user_id) AS hi FROM orders WHERE 1 > 2;
SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders WHERE order_id > 1000;
SELECT user_id, COUNT(*) AS n FROM orders WHERE NOT TRUE IS TRUE GROUP BY user_id;
SELECT order_id FROM orders WHERE FALSE UNION ALL SELECT order_id FROM orders WHERE order_id < 3;
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders WHERE 1 > 2;
