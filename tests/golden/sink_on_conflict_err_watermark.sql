-- ON CONFLICT DO ERROR / NOTHING compact on watermarks: every source needs one (both are named)
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE plain (word STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE plain2 (word STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
EXPLAIN INSERT INTO by_count SELECT p.word, COUNT(*) FROM plain p JOIN words w ON p.word = w.word JOIN plain2 q ON q.word = p.word GROUP BY p.word ON CONFLICT DO NOTHING;
