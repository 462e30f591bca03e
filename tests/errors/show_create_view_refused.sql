-- SHOW CREATE VIEW of a view whose query the expansion does not cover (a join with USING): weir says so.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE TABLE u (a INT, c STRING) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT t.a, u.c FROM t JOIN u USING (a);
SHOW CREATE VIEW v;
