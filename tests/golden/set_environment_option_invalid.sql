-- SET checks the execution environment's options at once, as Flink 2.3's SQL client does: an enum
-- is read case-insensitively and trimmed (' Batch ' is BATCH), an int trimmed, and a value that
-- does not read, or is out of range, fails the SET itself (here pipeline.max-parallelism = 0;
-- the script stops).
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = ' Batch ';
SET 'pipeline.max-parallelism' = ' 64 ';
SET 'execution.checkpointing.mode' = 'at_least_once';
SELECT username FROM clicks;
SET 'pipeline.max-parallelism' = '0';
SELECT username FROM clicks;
