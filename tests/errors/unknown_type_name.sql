-- A type name Flink does not know: its parser takes it as a user-defined type and the validator
-- fails with Calcite's message, without a position (measured on Flink 2.3, CAST and DDL alike).
CREATE TABLE t0 (k STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT CAST(k AS NOTATYPE) FROM t0;
