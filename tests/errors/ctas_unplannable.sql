-- CREATE TABLE ... AS SELECT whose job cannot be planned (updates into an append-only sink): the
-- table is not left behind.
CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE agg WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-never-written-ctas', 'format' = 'csv')
  AS SELECT k, COUNT(*) AS n FROM src GROUP BY k;
