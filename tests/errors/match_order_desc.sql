-- MATCH_RECOGNIZE ordered by time descending.
CREATE TABLE ev (
  k STRING, id INT, v STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '$DATA/mr_events.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts DESC MEASURES A.id AS a PATTERN (A B) DEFINE A AS A.v = 'a') AS T;
