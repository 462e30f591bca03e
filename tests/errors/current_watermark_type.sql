-- CURRENT_WATERMARK of a column that cannot be a time attribute.
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SELECT CURRENT_WATERMARK(url) FROM clicks;
