-- 'sink.shuffle-by-partition.enable' is a boolean, read for a query of the table too
-- (Flink 2.3.0, measured).
CREATE TABLE f (v INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/in', 'format' = 'csv',
  'sink.shuffle-by-partition.enable' = 'maybe');
EXPLAIN SELECT * FROM f;
