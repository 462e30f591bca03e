-- A temporary table name that is taken.
CREATE TEMPORARY TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE t (b INT) WITH ('connector' = 'datagen');
