-- A bare NULL as a select item is rejected while validating, whatever the sink column (here a
-- nullable one), as in Flink 2.3.0.
CREATE TABLE t (x INT NOT NULL, y STRING) WITH ('connector' = 'blackhole');
INSERT INTO t SELECT 1, NULL;
