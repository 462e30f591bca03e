-- 'source.report-statistics' is an enum (NONE, ALL): another value fails the table's factory.
-- Flink 2.3.0's message (measured with this script's EXPLAIN).
CREATE TABLE f (v INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/in', 'format' = 'csv',
  'source.report-statistics' = 'bogus');
EXPLAIN SELECT * FROM f;
