-- 'scan.parallelism' at runtime: the source is read by that many subtasks (datagen deals its
-- sequence to them: 4, 3 and 3 of 10 rows) and the rows reach the operators after it, which run
-- at parallelism.default, through a rebalance. Here 3 source subtasks feed one writer subtask (one
-- part file), a tumbling window over a watermark assigned behind the rebalance, and a group
-- aggregate behind a keyBy; under parallelism 2 a source of one subtask feeds two writers (two part
-- files, 5 rows each: dealt round-robin). Read back in batch mode: the files and rows are Flink's.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '3',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE gen1 (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '1',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE genw (id INT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts - INTERVAL '1' HOUR)
  WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '3',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE out1 (id INT, tag STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/out1', 'format' = 'csv');
CREATE TABLE outw (w_end TIMESTAMP(3), n BIGINT, s INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/outw', 'format' = 'csv');
CREATE TABLE out2 (id INT, tag STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv');
SET 'parallelism.default' = '1';
INSERT INTO out1 SELECT id, CAST(id AS STRING) FROM gen;
INSERT INTO outw SELECT CAST(window_end AS TIMESTAMP(3)), COUNT(*), SUM(id)
  FROM TABLE(TUMBLE(TABLE genw, DESCRIPTOR(ts), INTERVAL '4' SECOND)) GROUP BY window_start, window_end;
SET 'parallelism.default' = '2';
INSERT INTO out2 SELECT id, CAST(id AS STRING) FROM gen1;

CREATE TABLE out1_files (id INT, tag STRING, f STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out1', 'format' = 'csv');
CREATE TABLE outw_files (w_end TIMESTAMP(3), n BIGINT, s INT)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/outw', 'format' = 'csv');
CREATE TABLE out2_files (id INT, tag STRING, f STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SELECT COUNT(DISTINCT f) AS files, COUNT(*) AS n, SUM(id) AS s FROM out1_files;
SELECT id, tag FROM out1_files ORDER BY id;
SELECT n, s FROM outw_files ORDER BY s;
SELECT COUNT(DISTINCT f) AS files, COUNT(*) AS n, SUM(id) AS s FROM out2_files;
SELECT f2, COUNT(*) AS n FROM (SELECT REGEXP_EXTRACT(f, '-([0-9]+-[0-9]+)$', 1) AS f2 FROM out2_files) GROUP BY f2 ORDER BY f2;
-- a group aggregate behind the keyBy, read in batch from the source of 3 subtasks
SELECT id % 3 AS m, COUNT(*) AS n FROM gen GROUP BY id % 3 ORDER BY m;
