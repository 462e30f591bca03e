-- A sink option with a bad value fails a query of the table too: Flink's factory reads every option.
CREATE TABLE events (id INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/events', 'format' = 'csv',
  'sink.rolling-policy.file-size' = 'big');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM events;
