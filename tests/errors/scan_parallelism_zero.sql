-- 'scan.parallelism' must be positive: Flink 2.3.0's translation (already EXPLAIN) fails with
-- TableException 'Invalid configured parallelism 0 for table ...' (measured; -1 the same).
CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '0');
EXPLAIN SELECT id FROM g;
