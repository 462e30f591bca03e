-- 'auto-compaction' of the filesystem sink in a streaming job (Flink's streaming file sink:
-- streaming-writer -> compact-coordinator -> compact-operator -> end: Writer). Without
-- checkpoints every file is committed at the end of the input and compacted then: the default
-- target size (the rolling file size) merges the files of both writers into one
-- compacted-part-<uuid>-0-0 (subtask 0's rows, then subtask 1's: the files sorted by path); a
-- 20b target keeps one compacted file per written file; partitions compact each on its own and
-- get their success file; no .uncompacted file is left. Batch jobs ignore the option (Flink 2.3).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE c1 (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c1', 'format' = 'csv', 'auto-compaction' = 'true');
CREATE TABLE c2 (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c2', 'format' = 'json', 'auto-compaction' = 'true',
        'compaction.file-size' = '20b');
CREATE TABLE c3 (id INT, s STRING, p INT) PARTITIONED BY (p)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c3', 'format' = 'csv', 'auto-compaction' = 'true',
        'sink.partition-commit.policy.kind' = 'success-file');
CREATE TABLE c4 (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c4', 'format' = 'csv', 'auto-compaction' = 'true');
INSERT INTO c1 SELECT id, CAST(id * 7 AS STRING) FROM src;
INSERT INTO c2 SELECT id, CAST(id * 7 AS STRING) FROM src;
INSERT INTO c3 SELECT id, CAST(id * 7 AS STRING), id % 3 FROM src;

-- the files read back in their order (one reader), their names without the uuid
SET 'parallelism.default' = '1';
SET 'execution.runtime-mode' = 'batch';
INSERT INTO c4 SELECT id, CAST(id * 7 AS STRING) FROM src;
CREATE TABLE r1 (id INT, s STRING, n STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c1', 'format' = 'csv');
CREATE TABLE r2 (id INT, s STRING, n STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c2', 'format' = 'json');
CREATE TABLE r3 (id INT, s STRING, p INT, n STRING METADATA FROM 'file.name' VIRTUAL) PARTITIONED BY (p)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c3', 'format' = 'csv');
CREATE TABLE r4 (id INT, s STRING, n STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/c4', 'format' = 'csv');
SELECT REGEXP_REPLACE(n, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID') AS f, id, s FROM r1;
SELECT REGEXP_REPLACE(n, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID') AS f, id, s FROM r2;
SELECT p, REGEXP_REPLACE(n, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID') AS f, id, s FROM r3;
SELECT REGEXP_REPLACE(n, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID') AS f, COUNT(*) AS c FROM r4
  GROUP BY REGEXP_REPLACE(n, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID');
-- a bad size is refused as Flink refuses it
CREATE TABLE bad (id INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/bad', 'format' = 'csv',
  'auto-compaction' = 'true', 'compaction.file-size' = 'big');
SET 'execution.runtime-mode' = 'streaming';
INSERT INTO bad VALUES (1);
