-- A legacy filesystem table option Flink's CsvTableSource reads and weir does not yet
-- (format.quote-character): refused by name, not ignored.
CREATE TABLE q (key BIGINT, `value` VARCHAR) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$DATA/legacy_piped.csv', 'format.type' = 'csv',
  'format.quote-character' = '''');
SELECT * FROM q;
