-- ALTER VIEW of a table.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
ALTER VIEW t RENAME TO u;
