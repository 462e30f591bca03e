-- SHOW CREATE VIEW of a view whose query the expansion does not cover (a subquery in an expression): weir says so.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a FROM t WHERE a IN (SELECT a FROM t);
SHOW CREATE VIEW v;
