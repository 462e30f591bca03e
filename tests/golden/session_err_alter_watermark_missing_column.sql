-- A watermark on a column the table does not have.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t ADD WATERMARK FOR ts AS ts;
