-- A query over a table with a watermark; the rowtime column keeps its type.
CREATE TABLE ev (id INT, kind STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/events.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, kind, ts FROM ev WHERE kind = 'click';
DESCRIBE ev;
