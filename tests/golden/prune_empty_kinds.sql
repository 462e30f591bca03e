-- Constant conditions over any literal type are reduced (DATE, TIMESTAMP, strings, IN, LIKE), and a
-- global aggregate over the emptied input returns its one row only when Flink's planner knows the
-- result of every call over no rows (COUNT, SUM, MIN, MAX, AVG); with LISTAGG, FIRST_VALUE or
-- STDDEV_POP the aggregate runs over the empty input and, in streaming, emits nothing (found by the
-- differential tester's changelog category).
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT COUNT(*) AS n FROM orders WHERE DATE '2020-02-15' IN (DATE '2020-09-13', DATE '2020-05-18');
SELECT COUNT(*) AS n, MAX(amount) AS hi FROM orders WHERE TIMESTAMP '2020-01-01 00:01:02' > TIMESTAMP '2020-01-01 00:03:02';
SELECT AVG(amount) AS a, COUNT(DISTINCT user_id) AS u FROM orders WHERE 'a' LIKE 'b%';
SELECT MAX(amount) FILTER (WHERE user_id > 0) AS hi FROM orders WHERE UPPER('a') = 'b';
SELECT COUNT(*) AS n, LISTAGG(CAST(user_id AS STRING)) AS users FROM orders WHERE 1.5 <= 0.1 IS NOT FALSE;
SELECT FIRST_VALUE(order_id) AS f FROM orders WHERE 1 = 2;
SELECT STDDEV_POP(amount) AS s FROM orders WHERE 1 = 2;
