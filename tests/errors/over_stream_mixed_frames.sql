-- ROW_NUMBER's frame is ROWS, COUNT's default RANGE: two windows, which the streaming
-- OverAggregate refuses.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SELECT username, ROW_NUMBER() OVER (PARTITION BY username ORDER BY ts) AS rn,
  COUNT(*) OVER (PARTITION BY username ORDER BY ts) AS c FROM clicks;
