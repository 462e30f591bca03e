-- LISTAGG takes a value and a separator; a third argument fails with Calcite's message, which
-- names 1 expected argument (measured on Flink 2.3).
CREATE TABLE t0 (k STRING, i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT LISTAGG(k, ',', 'x') FROM t0;
