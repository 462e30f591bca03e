-- COUNT of two fields (also with DISTINCT) is refused by Flink's planner with its own message
-- (measured on Flink 2.3); weir had counted the first field only.
CREATE TABLE t0 (k STRING, i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT COUNT(DISTINCT i, k) FROM t0;
