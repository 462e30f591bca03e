-- SET 'execution.runtime-mode' to a value that is no RuntimeExecutionMode fails at once, with the
-- constants Flink lists (Flink 2.3's SQL client, measured); the script stops.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batching';
SELECT username FROM clicks;
