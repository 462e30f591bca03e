-- 'sink.parallelism' at runtime: the sink runs with its own subtasks. A filesystem sink with
-- 'sink.parallelism' = '2' under parallelism 1 gets its rows through a rebalance (dealt
-- round-robin from a random subtask on) and writes one part file per subtask that received rows
-- (part-<uuid>-0-0 and part-<uuid>-1-0); '1' under parallelism 2 gathers the rows of both source
-- subtasks into one file. A primary key changes nothing for the filesystem writer (Flink's
-- filesystem sink adds no keyBy: the edge stays a rebalance). Read back in batch mode: the
-- number of files and the rows are Flink's.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.id.kind' = 'sequence',
  'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE out2 (id INT, tag STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv', 'sink.parallelism' = '2');
CREATE TABLE out3k (id INT, tag STRING, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out3k', 'format' = 'csv', 'sink.parallelism' = '3');
CREATE TABLE out1 (id INT, tag STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out1', 'format' = 'csv', 'sink.parallelism' = '1');
SET 'parallelism.default' = '1';
INSERT INTO out2 SELECT id, CAST(id AS STRING) FROM gen;
INSERT INTO out3k SELECT id, CAST(id AS STRING) FROM gen;
SET 'parallelism.default' = '2';
INSERT INTO out1 SELECT id, CAST(id AS STRING) FROM gen;

CREATE TABLE out2_files (id INT, tag STRING, f STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv');
CREATE TABLE out3k_files (id INT, tag STRING, f STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out3k', 'format' = 'csv');
CREATE TABLE out1_files (id INT, tag STRING, f STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out1', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
-- files, rows, and the subtask and counter parts of the file names
SELECT COUNT(DISTINCT f) AS files, COUNT(*) AS n, SUM(id) AS s FROM out2_files;
SELECT DISTINCT REGEXP_EXTRACT(f, '-([0-9]+-[0-9]+)$', 1) AS subtask_file FROM out2_files ORDER BY subtask_file;
SELECT id, tag FROM out2_files ORDER BY id;
SELECT COUNT(DISTINCT f) AS files, COUNT(*) AS n, SUM(id) AS s FROM out3k_files;
SELECT DISTINCT REGEXP_EXTRACT(f, '-([0-9]+-[0-9]+)$', 1) AS subtask_file FROM out3k_files ORDER BY subtask_file;
SELECT COUNT(DISTINCT f) AS files, COUNT(*) AS n, SUM(id) AS s FROM out1_files;
SELECT DISTINCT REGEXP_EXTRACT(f, '-([0-9]+-[0-9]+)$', 1) AS subtask_file FROM out1_files;
SELECT id, tag FROM out1_files ORDER BY id;
