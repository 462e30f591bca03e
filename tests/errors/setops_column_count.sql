-- Both sides of INTERSECT need the same number of columns (Calcite's check).
CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SELECT a FROM t INTERSECT SELECT a, b FROM t;
