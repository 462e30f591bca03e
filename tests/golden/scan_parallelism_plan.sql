-- 'scan.parallelism' in the plan (FLIP-367), as Flink 2.3.0 translates it: the source runs at its
-- own parallelism and the operator after it at parallelism.default (the source is wrapped), over a
-- REBALANCE edge when the two differ and FORWARD when they are equal. A keyBy after the source
-- stays a HASH edge, a watermark assigner runs at the default behind the rebalance, a sink with
-- 'sink.parallelism' keeps its own. Without the option the source runs at the default.
CREATE TABLE gen (id INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '3',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE gen1 (id INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '1',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE genw (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '3');
CREATE TABLE bh (id INT, v INT) WITH ('connector' = 'blackhole');
CREATE TABLE bhc (id INT, c BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE out2 (id INT, v INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv',
  'sink.parallelism' = '2');
SET 'parallelism.default' = '1';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v + 1 FROM gen WHERE v > 0;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v FROM gen;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bhc SELECT id, COUNT(*) FROM gen GROUP BY id;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v + 1 FROM gen1 WHERE v > 0;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, 1 FROM genw;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO out2 SELECT id, v + 1 FROM gen;
SET 'parallelism.default' = '3';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v + 1 FROM gen WHERE v > 0;
SET 'parallelism.default' = '2';
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v + 1 FROM gen WHERE v > 0;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bh SELECT id, v + 1 FROM gen1 WHERE v > 0;
