-- GROUPING() takes grouped expressions only.
CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
SELECT a, GROUPING(b) FROM t GROUP BY ROLLUP (a);
