-- Flink 2.3 requires an ON CONFLICT clause when the sink's primary key does not contain the query's upsert key
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word;
