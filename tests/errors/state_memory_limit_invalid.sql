-- weir.state.memory-limit takes a memory size ('512 mb'): anything else is refused when the job starts.
CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10');
CREATE TABLE bh (id BIGINT, c BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
SET 'weir.state.memory-limit' = 'lots';
INSERT INTO bh SELECT id, COUNT(*) FROM g GROUP BY id;
