-- SHOW CREATE VIEW: Flink's expanded view text for views over tables, views and joins, with
-- column lists, comments, aliases, expressions and temporary views.
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE orders (order_id INT, customer_id INT, amount DECIMAL(10, 2), note STRING)
  WITH ('connector' = 'datagen');
CREATE TABLE customers (customer_id INT, name STRING, region STRING) WITH ('connector' = 'datagen');
CREATE VIEW big AS SELECT order_id, amount FROM orders WHERE amount > 100;
SHOW CREATE VIEW big;
CREATE VIEW named (id, total) COMMENT 'ids and amounts' AS SELECT order_id, amount * 2 FROM orders;
SHOW CREATE VIEW named;
CREATE TEMPORARY VIEW recent AS SELECT * FROM orders WHERE order_id > 10 AND NOT (amount < 5 OR note IS NULL);
SHOW CREATE VIEW recent;
CREATE VIEW exprs AS SELECT order_id + 1 AS next_id, (order_id + 1) * 2 AS twice, order_id - (customer_id - 1) AS diff,
  CAST(note AS INT) AS n, CAST(amount AS DECIMAL(12, 3)) AS wide, UPPER(note) AS up, CHAR_LENGTH(note), 'it''s' AS quoted,
  CASE order_id WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS word, note || '!' AS shout
  FROM orders AS o WHERE o.amount BETWEEN 1 AND 10 OR o.note LIKE 'x%' OR o.order_id NOT IN (3, 4);
SHOW CREATE VIEW exprs;
CREATE VIEW per_customer AS SELECT DISTINCT customer_id, COUNT(DISTINCT order_id) AS orders_n, MAX(amount) AS top
  FROM orders GROUP BY customer_id HAVING SUM(amount) > 10;
SHOW CREATE VIEW per_customer;
CREATE VIEW joined AS SELECT o.order_id, c.name, c.customer_id FROM orders AS o
  LEFT JOIN customers AS c ON o.customer_id = c.customer_id WHERE c.region IS NOT NULL;
SHOW CREATE VIEW joined;
CREATE VIEW over_view AS SELECT * FROM big JOIN named ON big.order_id = named.id;
SHOW CREATE VIEW over_view;
CREATE VIEW stars AS SELECT *, order_id AS again FROM orders;
SHOW CREATE VIEW stars;
CREATE DATABASE other;
USE other;
CREATE VIEW remote AS SELECT name FROM default_database.customers;
SHOW CREATE VIEW remote;
SHOW CREATE VIEW default_catalog.default_database.big;
