-- 'scan.parallelism' must be an integer: Flink 2.3.0 fails with NumberFormatException
-- 'For input string: "1.5"' (measured; 'abc' the same).
CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '1.5');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id FROM g;
