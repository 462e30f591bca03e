-- SHOW CREATE VIEW of a table.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
SHOW CREATE VIEW t;
