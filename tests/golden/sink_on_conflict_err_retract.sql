-- ON CONFLICT only on an upsert sink: a debezium-json file sink takes UPDATE_BEFORE
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE cdc_out (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-never-written', 'format' = 'debezium-json');
EXPLAIN INSERT INTO cdc_out SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO DEDUPLICATE;
