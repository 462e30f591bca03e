-- INSERT INTO a table of the legacy options 'connector.type' = 'filesystem': weir reads such
-- tables and does not write them (Flink's legacy CsvTableSink does; docs/user-guide.md, differences).
CREATE TABLE w (key BIGINT, `value` VARCHAR) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$TMP/out.csv', 'format.type' = 'csv');
INSERT INTO w VALUES (1, 'one');
