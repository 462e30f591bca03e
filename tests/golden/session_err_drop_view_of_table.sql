-- DROP VIEW of a table.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
DROP VIEW t;
