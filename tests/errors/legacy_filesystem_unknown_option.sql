-- A legacy filesystem table with a property its factory does not know: Flink's
-- NoMatchingTableFactoryException naming the unsupported key.
CREATE TABLE t (key BIGINT, `value` VARCHAR) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$DATA/legacy_piped.csv', 'format.type' = 'csv',
  'format.nonsense' = 'x');
SELECT * FROM t;
