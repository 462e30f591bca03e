-- A source with more subtasks than weir runs a job with (1024, one thread each) is refused when the
-- job is built, naming the table (Flink accepts up to 32768 and waits for that many task slots);
-- EXPLAIN's JSON plan shows the parallelism as Flink does.
CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '2000');
CREATE TABLE bh (id INT) WITH ('connector' = 'blackhole');
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id FROM g;
INSERT INTO bh SELECT id FROM g;
