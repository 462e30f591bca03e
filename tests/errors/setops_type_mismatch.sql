-- EXCEPT of columns without a common type.
CREATE TABLE t (a INT, b BOOLEAN) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SELECT a FROM t EXCEPT ALL SELECT b FROM t;
