-- A table of Flink's legacy descriptor options with another format than csv: Flink's
-- NoMatchingTableFactoryException (the mismatched property, the properties with the schema).
CREATE TABLE j (key BIGINT, `value` VARCHAR) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$DATA/legacy_piped.csv', 'format.type' = 'json');
SELECT * FROM j;
