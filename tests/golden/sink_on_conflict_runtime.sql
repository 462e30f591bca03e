-- ON CONFLICT at run time: words counted and written to a print sink keyed by the count, so
-- words with the same count conflict. DEDUPLICATE keeps every row's history (the legacy
-- SinkUpsertMaterializer); NOTHING compacts the changes at every watermark (Flink's sources emit
-- one after every record) and keeps the first row of a key, dropping the others; ERROR fails the
-- job at the first conflict, naming the key.
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'print');
SET 'table.dml-sync' = 'true';
INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO DEDUPLICATE;
INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO NOTHING;
INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO ERROR;
