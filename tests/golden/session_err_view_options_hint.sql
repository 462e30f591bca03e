-- OPTIONS hints are for tables: a view refuses them.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
CREATE VIEW v AS SELECT a FROM t;
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM v /*+ OPTIONS('number-of-rows' = '2') */;
