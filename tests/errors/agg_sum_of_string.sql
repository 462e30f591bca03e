-- SUM of a STRING column: Calcite's SqlValidatorException, the operand type written as Calcite
-- writes it (VARCHAR(2147483647)); measured on Flink 2.3.
CREATE TABLE t0 (k STRING, i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT i, SUM(k) FROM t0 GROUP BY i;
