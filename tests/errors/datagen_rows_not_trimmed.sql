-- A long option is parsed as written: spaces around the number are an error (Flink 2.3.0, measured).
CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = ' 5 ');
EXPLAIN SELECT * FROM g;
