-- A legacy filesystem table whose file holds a row that does not parse: the job fails with the
-- file, line and field (Flink: a ParseException naming the row and column).
CREATE TABLE t (key BIGINT, `value` VARCHAR) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$DATA/legacy_bad.csv', 'format.type' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
