-- Flink 2.3's INSERT ... ON CONFLICT (FLIP-558): the clause shows as conflictStrategy on the Sink;
-- DO ERROR / DO NOTHING run a SinkMaterializer fed by a WatermarkTimestampAssigner; a primary
-- key that contains the input's upsert key needs no materializer (the clause is still shown);
-- with table.exec.sink.require-on-conflict = false the query needs no clause (the legacy
-- SinkUpsertMaterializer); batch plans ignore the clause.
CREATE TABLE words (word STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/conflict_words.csv', 'format' = 'csv');
CREATE TABLE by_count (word STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE by_word (word STRING, cnt BIGINT, PRIMARY KEY (word) NOT ENFORCED) WITH ('connector' = 'blackhole');
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO NOTHING;
EXPLAIN CHANGELOG_MODE INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO DEDUPLICATE;
EXPLAIN INSERT INTO by_word SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO ERROR;
EXPLAIN INSERT INTO by_count (word, cnt) SELECT word, COUNT(*) FROM words GROUP BY word on conflict do nothing;
SET 'table.exec.sink.upsert-materialize' = 'FORCE';
EXPLAIN INSERT INTO by_word SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO NOTHING;
RESET 'table.exec.sink.upsert-materialize';
SET 'table.exec.sink.require-on-conflict' = 'false';
EXPLAIN INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word;
RESET 'table.exec.sink.require-on-conflict';
SET 'execution.runtime-mode' = 'batch';
EXPLAIN INSERT INTO by_count SELECT word, COUNT(*) FROM words GROUP BY word ON CONFLICT DO DEDUPLICATE;
