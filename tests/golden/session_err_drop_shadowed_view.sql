-- DROP VIEW while a temporary view of the same name shadows it.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a FROM t;
CREATE TEMPORARY VIEW v AS SELECT a + 1 AS b FROM t;
DROP VIEW v;
