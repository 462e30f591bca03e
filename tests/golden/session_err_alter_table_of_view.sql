-- ALTER TABLE of a view.
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
CREATE VIEW v AS SELECT a FROM t;
ALTER TABLE v RENAME TO v2;
