-- Views: ALTER VIEW ... RENAME TO / AS, temporary views shadowing permanent ones (CREATE, DESCRIBE,
-- queries and DROP on both), views over views.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE orders (
  order_id INT,
  customer_id INT,
  amount DECIMAL(10, 2),
  order_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE VIEW big AS SELECT order_id, amount FROM orders WHERE amount > 100;
CREATE VIEW ids (id) COMMENT 'the order ids' AS SELECT order_id FROM orders;
SHOW VIEWS;
ALTER VIEW big RENAME TO big_orders;
SHOW VIEWS;
SELECT * FROM big_orders;
DESCRIBE big_orders;
ALTER VIEW big_orders AS SELECT order_id, customer_id FROM orders WHERE order_id > 3;
DESCRIBE big_orders;
SELECT * FROM big_orders;
CREATE VIEW nested AS SELECT customer_id, COUNT(*) AS n FROM big_orders GROUP BY customer_id;
SELECT * FROM nested;
ALTER VIEW ids AS SELECT order_id, amount FROM orders WHERE order_id = 1;
DESCRIBE ids;
SELECT * FROM ids;
CREATE TEMPORARY VIEW big_orders AS SELECT order_id AS only_id FROM orders WHERE order_id = 2;
SHOW VIEWS;
DESCRIBE big_orders;
SELECT * FROM big_orders;
DROP TEMPORARY VIEW big_orders;
DESCRIBE big_orders;
SELECT * FROM big_orders;
SELECT * FROM nested;
CREATE TEMPORARY VIEW tv AS SELECT order_id FROM orders WHERE order_id < 3;
CREATE VIEW tv AS SELECT amount FROM orders;
DESCRIBE tv;
DROP TEMPORARY VIEW tv;
DESCRIBE tv;
DROP VIEW tv;
CREATE TEMPORARY TABLE orders (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
DESCRIBE orders;
SHOW TABLES;
DROP TEMPORARY TABLE orders;
DESCRIBE orders;
CREATE DATABASE db2;
ALTER VIEW ids RENAME TO db2.ids2;
SHOW VIEWS FROM db2;
SHOW VIEWS;
DROP VIEW nested;
DROP VIEW big_orders;
DROP VIEW ids2;
SHOW VIEWS;
