-- A table of Flink's legacy descriptor options ('connector.type' = 'filesystem', 'format.type' =
-- 'csv': the CsvTableSource Flink 2.x still plans) read as a source with its CSV rules (no quote
-- character, an empty STRING field is '' and an empty BIGINT NULL, fields after the table's
-- columns are not read), with another field delimiter, and as the lookup side of processing-time
-- temporal joins (inner, left, on an expression), as Nexmark q13 uses its side input.
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE TABLE side_input (
  key BIGINT,
  `value` VARCHAR
) WITH (
  'connector.type' = 'filesystem',
  'connector.path' = 'file://$DATA/legacy_side.csv',
  'format.type' = 'csv'
);

CREATE TABLE piped (k INT, name STRING) WITH (
  'connector.type' = 'filesystem', 'connector.path' = '$DATA/legacy_piped.csv', 'format.type' = 'csv',
  'format.field-delimiter' = '|');

CREATE TABLE bids (auction BIGINT, price BIGINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/legacy_bids.csv', 'format' = 'csv');

SELECT key, `value`, CHAR_LENGTH(`value`) AS len, `value` IS NULL AS value_is_null FROM side_input;

SELECT name, k FROM piped;

SELECT B.auction, B.price, S.`value`
FROM (SELECT *, PROCTIME() AS p_time FROM bids) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON B.auction = S.key;

SELECT B.auction, B.price, S.`value`
FROM (SELECT *, PROCTIME() AS p_time FROM bids) B
LEFT JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON B.auction = S.key;

SELECT B.auction, S.key, S.`value`
FROM (SELECT *, PROCTIME() AS p_time FROM bids) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON MOD(B.auction, 3) = S.key;

-- at parallelism 2, both subtasks probing (the probe side is two files): each lookup reads the whole file
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '2';
CREATE TABLE bids2 (auction BIGINT, price BIGINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/legacy_bids_parts', 'format' = 'csv');

SELECT COUNT(*) AS joined, SUM(B.price) AS prices, MAX(S.`value`) AS max_value
FROM (SELECT *, PROCTIME() AS p_time FROM bids2) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON B.auction = S.key;
