-- DROP TABLE of a view.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a FROM t;
DROP TABLE v;
