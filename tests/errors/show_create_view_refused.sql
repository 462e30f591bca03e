-- SHOW CREATE VIEW of a view whose query the expansion does not cover (GROUPING SETS): weir says so.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE TABLE u (a INT, c STRING) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a, COUNT(*) AS n FROM t GROUP BY GROUPING SETS ((a), ());
SHOW CREATE VIEW v;
