-- DROP TEMPORARY VIEW of a permanent view.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a FROM t;
DROP TEMPORARY VIEW v;
