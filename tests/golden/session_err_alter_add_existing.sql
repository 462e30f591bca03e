-- ALTER TABLE ADD of a column that exists.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t ADD a INT;
