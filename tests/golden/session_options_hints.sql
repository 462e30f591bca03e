-- OPTIONS hints (dynamic table options) on tables named with one, two or three parts: the
-- hinted options replace the table's for that query only, and EXPLAIN shows the hint.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE DATABASE db;
CREATE TABLE db.t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SELECT COUNT(*) AS n FROM db.t;
SELECT COUNT(*) AS n FROM db.t /*+ OPTIONS('number-of-rows' = '3') */;
SELECT COUNT(*) AS n FROM default_catalog.db.t /*+ OPTIONS('number-of-rows' = '5') */;
SELECT COUNT(*) AS n FROM db.t;
EXPLAIN SELECT a FROM db.t /*+ OPTIONS('number-of-rows' = '2') */;
