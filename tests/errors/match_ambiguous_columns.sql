-- Partition columns and measures with the same names.
CREATE TABLE ev (
  k STRING, id INT, v STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '$DATA/mr_events.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM ev MATCH_RECOGNIZE (PARTITION BY k, id ORDER BY ts MEASURES A.k AS k, A.id AS id PATTERN (A) DEFINE A AS A.v = 'a') AS T;
