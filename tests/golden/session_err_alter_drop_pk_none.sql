-- ALTER TABLE DROP PRIMARY KEY without one.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t DROP PRIMARY KEY;
