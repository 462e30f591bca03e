-- COMPILE PLAN and EXECUTE PLAN over tables of a created catalog: the plan's tables carry their
-- full identifier (`shop`.`sales`.`t`), read back by EXECUTE PLAN.
SET 'table.dml-sync' = 'true';
CREATE CATALOG shop WITH ('type' = 'generic_in_memory');
CREATE DATABASE shop.sales;
USE CATALOG shop;
CREATE TABLE sales.src (id INT, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE shop.sales.snk (id INT, amount DOUBLE) WITH ('connector' = 'blackhole');
COMPILE PLAN 'file://$TMP/shop-plan.json' FOR INSERT INTO shop.sales.snk SELECT id, amount * 2 FROM sales.src WHERE id > 0;
EXECUTE PLAN 'file://$TMP/shop-plan.json';
