-- A format option with a bad value fails the INSERT while it is planned (no job starts).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE out_f (v INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'csv',
  'csv.ignore-parse-errors' = 'perhaps');
INSERT INTO out_f SELECT v FROM src;
