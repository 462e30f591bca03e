-- 'sink.parallelism' that is no integer fails EXPLAIN of the INSERT.
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE out_p (v INT) WITH ('connector' = 'print', 'sink.parallelism' = 'two');
EXPLAIN INSERT INTO out_p SELECT v FROM src;
