-- 'sink.shuffle-by-partition.enable' of a partitioned filesystem sink: a hash exchange on the
-- dynamic partition columns in front of the writer (EXPLAIN shows Exchange(distribution=[hash[dt]]),
-- the job graph a HASH edge), so that each partition is written by one subtask: at parallelism 2
-- every partition directory holds one part file. (A static partition, PARTITION (dt = 'x'), leaves
-- no dynamic column and no exchange; weir's EXPLAIN of it names the static column
-- where Flink prints EXPR$1, a difference of its own.)
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '12', 'fields.id.kind' = 'sequence',
  'fields.id.start' = '1', 'fields.id.end' = '12');
CREATE TABLE pt (id INT, dt STRING) PARTITIONED BY (dt)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/pt', 'format' = 'csv', 'sink.shuffle-by-partition.enable' = 'true');
SET 'parallelism.default' = '2';
EXPLAIN INSERT INTO pt SELECT id, CAST(id % 3 AS STRING) FROM gen;
INSERT INTO pt SELECT id, CAST(id % 3 AS STRING) FROM gen;

CREATE TABLE pt_files (id INT, dt STRING, p STRING METADATA FROM 'file.path' VIRTUAL) PARTITIONED BY (dt)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/pt', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SELECT dt, COUNT(DISTINCT p) AS files, COUNT(*) AS n, SUM(id) AS s FROM pt_files GROUP BY dt ORDER BY dt;
