-- ALTER VIEW RENAME TO a name taken in the view's database.
CREATE VIEW v AS SELECT 1 AS a;
CREATE TABLE w (a INT) WITH ('connector' = 'datagen');
ALTER VIEW v RENAME TO w;
