-- ON CONFLICT only on an upsert sink: an insert-only query makes the blackhole sink append-only
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
EXPLAIN INSERT INTO by_count SELECT word, CAST(1 AS BIGINT) FROM words ON CONFLICT DO DEDUPLICATE;
