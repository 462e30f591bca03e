-- ALTER TABLE of a temporary table.
CREATE TEMPORARY TABLE t (a INT) WITH ('connector' = 'datagen');
ALTER TABLE t ADD x INT;
