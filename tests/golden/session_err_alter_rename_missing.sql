-- ALTER TABLE RENAME of a column that does not exist.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t RENAME nope TO x;
