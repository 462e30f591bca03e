-- A source table with a sink option: Flink creates the source while it plans, so EXPLAIN fails.
CREATE TABLE clicks (user_id BIGINT, url STRING) WITH ('connector' = 'datagen', 'sink.parallelism' = '4');
EXPLAIN SELECT url FROM clicks WHERE user_id > 10;
