-- ORDER BY a time attribute (ASC first) without LIMIT is a TemporalSort: rows wait for the
-- watermark and leave in time order (ties by the other keys); late rows are dropped.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'weir.exec.chunk-rows' = '1';
CREATE TABLE scores (id INT, name STRING, score INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/scores.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT id, name, ts FROM scores ORDER BY ts;
SELECT id, score, ts FROM scores ORDER BY ts, score DESC;
CREATE TABLE p (id INT, name STRING, pt AS PROCTIME()) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/scores.csv', 'format' = 'csv', 'csv.null-literal' = '', 'csv.ignore-parse-errors' = 'true');
EXPLAIN SELECT id, name, ts FROM scores ORDER BY ts, score DESC;
EXPLAIN SELECT id, name FROM p ORDER BY pt;
