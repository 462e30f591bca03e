-- Rows of one partition that follow each other go to the same part file, and rows whose partition
-- values are equal but print apart go to different directories: a DOUBLE key's -0.0 and 0.0 are
-- equal numbers, named '-0.0' and '0.0'. A partition left and entered again keeps its directory.
-- (Flink 2.3 cannot read such a table back whole: 'Path should not be null or empty'; each
-- directory is read as a plain table.)
CREATE TABLE m (id INT, v STRING, d DOUBLE, s STRING) PARTITIONED BY (d, s)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/m', 'format' = 'csv', 'csv.null-literal' = '');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
SET 'sql-client.execution.result-mode' = 'tableau';
-- the rows come from a file (over VALUES Flink folds CAST('-0.0' AS DOUBLE) to 0.0, as below);
-- '' reads back as NULL
CREATE TABLE text_rows (id INT, v STRING, d STRING, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/text_rows', 'format' = 'csv', 'csv.null-literal' = '');
INSERT INTO text_rows VALUES
  (1, 'a', '-0.0', 'x'),
  (2, 'b', '0.0', 'x'),
  (3, 'c', '0.0', 'x'),
  (4, 'd', '1.5', 'x'),
  (5, 'e', '1.5', 'y'),
  (6, 'f', '1.5', 'y'),
  (7, 'g', '2.5', ''),
  (8, 'h', '2.5', ''),
  (9, 'i', '0.0', 'x');
CREATE TABLE src (id INT, v STRING, d DOUBLE, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/text_rows', 'format' = 'csv', 'csv.null-literal' = '');
INSERT INTO m SELECT * FROM src;
-- folded constants: -0.0 is 0.0 there
SELECT CAST('-0.0' AS DOUBLE) AS folded, -0.0E0 AS negated, 0.0E0 * -1 AS product;

-- each directory read as a plain table: its files hold id and v only
CREATE TABLE neg_zero (id INT, v STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/m/d=-0.0/s=x', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM neg_zero;
CREATE TABLE pos_zero (id INT, v STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/m/d=0.0/s=x', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM pos_zero;
CREATE TABLE one_five_y (id INT, v STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/m/d=1.5/s=y', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM one_five_y;
CREATE TABLE two_five_null (id INT, v STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/m/d=2.5/s=__DEFAULT_PARTITION__', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM two_five_null;
