-- A bare NULL in INSERT ... VALUES is rejected while validating, as in Flink 2.3.0 (Calcite cannot
-- type it): no job starts and no EnforcerException is needed. CAST(NULL AS INT) would be typed.
CREATE TABLE t (x INT NOT NULL, y STRING) WITH ('connector' = 'blackhole');
INSERT INTO t VALUES (NULL, 'a');
