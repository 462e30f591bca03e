-- SET 'parallelism.default' = '0' fails at once, as in Flink 2.3: a parallelism is at least 1, or
-- -1 for the default; the value before stays and the script stops.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '0';
SELECT username FROM clicks;
