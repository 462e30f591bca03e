-- A source option with a bad value fails an INSERT into the table too: Flink's factory reads every
-- option it declares (Flink 2.3.0, measured: TimeUtils' message).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE f (v INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'csv',
  'source.monitor-interval' = 'abc');
EXPLAIN INSERT INTO f SELECT v FROM src;
