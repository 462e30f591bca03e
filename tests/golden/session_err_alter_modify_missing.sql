-- ALTER TABLE MODIFY of a column that does not exist.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t MODIFY nope INT;
