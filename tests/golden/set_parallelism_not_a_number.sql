-- SET 'parallelism.default' checks its value at once (Flink 2.3's SQL client does): the value,
-- trimmed, must be an int as Java reads one; a sign is allowed, and -1 means the cluster's default
-- (EXPLAIN's JSON execution plan shows -1 then, as Flink's does). Here ' 2 ', '+1' and '-1' are
-- taken and the queries run; '1.5' fails the SET itself (the script stops).
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '+1';
SET 'parallelism.default' = '-1';
EXPLAIN JSON_EXECUTION_PLAN SELECT username FROM clicks WHERE url = '/cart';
SELECT username FROM clicks WHERE url = '/cart';
SET 'parallelism.default' = ' 2 ';
SELECT username FROM clicks WHERE url = '/pay';
SET 'parallelism.default' = '1.5';
SELECT username FROM clicks;
