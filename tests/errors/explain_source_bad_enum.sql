-- An enum option with a value it does not have fails EXPLAIN of a query that reads the table.
CREATE TABLE logs (line STRING, dt STRING) PARTITIONED BY (dt) WITH (
  'connector' = 'filesystem', 'path' = '$TMP/logs', 'format' = 'csv',
  'sink.partition-commit.trigger' = 'event-time');
EXPLAIN SELECT dt, COUNT(*) FROM logs GROUP BY dt;
