-- A streaming filesystem sink runs Flink's PartitionCommitter (one subtask, after the writer:
-- StreamingFileWriter -> PartitionCommitter -> end: Writer) when the table is partitioned and has
-- a commit policy, with or without auto-compaction (measured on Flink 2.3.0); an unpartitioned
-- table or a partitioned one without a policy has no committer. The plans of these INSERTs are
-- compared with Flink's by tests/flink/plans.py (REBALANCE into the committer from two writers,
-- FORWARD from one); WEIR_CHECK_JOB_GRAPH=1 checks that the job that runs has the same vertices.
-- Every partition is committed at the end of the input; the rows read back are the rows written.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE pc (id INT, s STRING, p INT) PARTITIONED BY (p)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/pc', 'format' = 'csv',
        'sink.partition-commit.policy.kind' = 'success-file');
CREATE TABLE nopolicy (id INT, s STRING, p INT) PARTITIONED BY (p)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/nopolicy', 'format' = 'csv');
CREATE TABLE pc1 (id INT, s STRING, p INT) PARTITIONED BY (p)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/pc1', 'format' = 'csv',
        'sink.partition-commit.policy.kind' = 'success-file');
CREATE TABLE unpart (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/unpart', 'format' = 'csv',
        'sink.partition-commit.policy.kind' = 'success-file');
INSERT INTO pc SELECT id, CAST(id * 7 AS STRING), id % 3 FROM src;
INSERT INTO nopolicy SELECT id, CAST(id * 7 AS STRING), id % 3 FROM src;
INSERT INTO unpart SELECT id, CAST(id * 7 AS STRING) FROM src;

-- one subtask: the committer is fed FORWARD
SET 'parallelism.default' = '1';
INSERT INTO pc1 SELECT id + 10, CAST(id * 7 AS STRING), id % 3 FROM src;

-- read back in file order (one reader, the files sorted by path)
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM pc;
SELECT * FROM pc1;
SELECT * FROM nopolicy;
SELECT * FROM unpart;
