-- The values of the declared options are read before the unsupported options are reported
-- (Flink 2.3.0, measured: the boolean's error, not "Unsupported options found").
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE o (v INT) WITH ('connector' = 'print', 'standard-error' = 'yes', 'foo' = 'bar');
EXPLAIN INSERT INTO o SELECT v FROM src;
