-- Tables and views across catalogs and databases: SHOW TABLES / VIEWS with FROM / IN and
-- [NOT] LIKE, SHOW COLUMNS, DESCRIBE, temporary objects shadowing permanent ones, and queries,
-- INSERTs and EXPLAIN over two- and three-part names.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SET 'table.dml-sync' = 'true';
CREATE CATALOG shop WITH ('type' = 'generic_in_memory', 'default-database' = 'main');
CREATE DATABASE shop.archive;
CREATE TABLE shop.main.orders (
  order_id INT COMMENT 'the order',
  customer_id INT,
  amount DECIMAL(10, 2),
  order_time TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE shop.archive.old_orders (order_id INT, amount DECIMAL(10, 2))
  WITH ('connector' = 'filesystem', 'path' = '$TMP/old_orders', 'format' = 'csv');
CREATE TABLE counts (customer_id INT, n BIGINT) WITH ('connector' = 'blackhole');
CREATE VIEW shop.main.big_orders AS SELECT order_id, amount FROM shop.main.orders WHERE amount > 100;
CREATE TEMPORARY VIEW shop.main.recent AS SELECT order_id FROM shop.main.orders WHERE order_id > 4;
CREATE TEMPORARY TABLE shop.archive.scratch (x INT) WITH ('connector' = 'datagen');
SHOW TABLES;
SHOW VIEWS;
SHOW TABLES FROM shop.main;
SHOW TABLES IN shop.archive;
SHOW VIEWS FROM shop.main;
SHOW VIEWS IN shop.archive;
SHOW TABLES FROM shop.main LIKE '%orders';
SHOW TABLES FROM shop.main NOT LIKE '%orders';
SHOW VIEWS FROM shop.main LIKE 'b%';
SHOW VIEWS FROM shop.main NOT LIKE 'b%';
USE CATALOG shop;
SHOW TABLES;
SHOW TABLES FROM archive;
SHOW TABLES IN default_catalog.default_database;
SHOW TABLES LIKE 'o_ders';
SHOW VIEWS LIKE '%';
SHOW COLUMNS FROM orders;
SHOW COLUMNS IN main.orders LIKE '%id';
SHOW COLUMNS FROM shop.main.orders NOT LIKE '%id';
SHOW COLUMNS FROM big_orders;
DESCRIBE orders;
DESCRIBE EXTENDED orders;
DESC shop.main.big_orders;
DESCRIBE archive.old_orders;
SELECT order_id, amount FROM big_orders;
SELECT COUNT(*) AS n FROM main.orders;
SELECT o.order_id FROM shop.main.orders AS o JOIN recent AS r ON o.order_id = r.order_id;
INSERT INTO archive.old_orders SELECT order_id, amount FROM orders WHERE order_id <= 2;
SELECT * FROM shop.archive.old_orders;
EXPLAIN SELECT order_id FROM shop.main.orders WHERE amount > 10;
EXPLAIN INSERT INTO default_catalog.default_database.counts SELECT customer_id, CAST(order_id AS BIGINT) FROM orders;
SELECT * FROM orders /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */ WHERE order_id = 1;
CREATE TEMPORARY VIEW orders AS SELECT order_id FROM shop.main.orders;
DESCRIBE orders;
SHOW TABLES;
DROP TEMPORARY VIEW orders;
DESCRIBE orders;
DROP TEMPORARY TABLE IF EXISTS shop.archive.scratch;
DROP TEMPORARY VIEW IF EXISTS recent;
DROP VIEW IF EXISTS big_orders;
DROP TABLE IF EXISTS nothing_here;
DROP TABLE shop.archive.old_orders;
SHOW TABLES FROM archive;
SHOW TABLES;
CREATE VIEW first_orders AS SELECT order_id FROM orders WHERE order_id < 3;
USE CATALOG default_catalog;
SELECT * FROM shop.main.first_orders;
