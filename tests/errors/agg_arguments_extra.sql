-- An aggregate call with more arguments than the function takes fails validation with Calcite's
-- message (weir read the first argument and ignored the rest); measured on Flink 2.3.
CREATE TABLE t0 (k STRING, i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT k, MAX(i, 1) FROM t0 GROUP BY k;
