-- A table argument of a window TVF names a table or view: Flink 2.3's parser refuses
-- TABLE (SELECT ...) there (a view over the query is the way).
CREATE TABLE src (id INT, ts AS TO_TIMESTAMP_LTZ(CAST(id AS BIGINT) * 100, 3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'datagen');
SELECT COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE (SELECT id, ts FROM src),
                  DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end;
