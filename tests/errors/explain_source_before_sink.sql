-- A bad source and a bad sink: the source is created first (when the query is converted).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'rows-per-second' = 'fast');
CREATE TABLE out_b (v INT) WITH ('connector' = 'blackhole', 'path' = '/x');
EXPLAIN INSERT INTO out_b SELECT v FROM src;
