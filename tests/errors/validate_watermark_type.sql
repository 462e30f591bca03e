-- A watermark on a column that is not a timestamp.
CREATE TABLE t (id INT, ts BIGINT, WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen');
