-- A watermark on a column that does not exist.
CREATE TABLE t (id INT, ts TIMESTAMP(3), WATERMARK FOR tsx AS tsx) WITH ('connector' = 'datagen');
