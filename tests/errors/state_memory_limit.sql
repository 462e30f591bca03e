-- weir.state.memory-limit: a job whose heap state outgrows the bound fails with an error naming
-- the operator (instead of growing until the kernel kills the process). Under the bound, or on the
-- rocksdb backend (state on disk), the same job runs.
CREATE TABLE g (id BIGINT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5000',
  'fields.v.min' = '1', 'fields.v.max' = '9');
CREATE TABLE bh (id BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
SET 'weir.state.memory-limit' = '64 kb';
SET 'state.backend.type' = 'rocksdb';
INSERT INTO bh SELECT id, COUNT(*), SUM(v) FROM g GROUP BY id;
SET 'state.backend.type' = 'hashmap';
SET 'weir.state.memory-limit' = '64 mb';
INSERT INTO bh SELECT id, COUNT(*), SUM(v) FROM g GROUP BY id;
SET 'weir.state.memory-limit' = '64 kb';
INSERT INTO bh SELECT id, COUNT(*), SUM(v) FROM g GROUP BY id;
