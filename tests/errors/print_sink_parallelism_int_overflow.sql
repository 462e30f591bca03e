-- 'sink.parallelism' is an int: a number beyond it is Integer.parseInt's error (Flink 2.3.0, measured).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE o (v INT) WITH ('connector' = 'print', 'sink.parallelism' = '3000000000');
EXPLAIN INSERT INTO o SELECT v FROM src;
