-- DROP TABLE while a temporary table of the same name shadows it.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE t (x INT) WITH ('connector' = 'datagen');
DESCRIBE t;
DROP TABLE t;
