-- ALTER TABLE RENAME of a column a computed column uses.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t RENAME a TO z;
