-- CURRENT_WATERMARK needs a rowtime attribute.
CREATE TABLE plain (username STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SELECT username, CURRENT_WATERMARK(ts) FROM plain;
