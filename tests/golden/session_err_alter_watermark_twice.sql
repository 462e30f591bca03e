-- ALTER TABLE ADD WATERMARK when the table has one.
CREATE TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen');
ALTER TABLE t ADD WATERMARK FOR ts AS ts;
