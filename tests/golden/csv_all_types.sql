-- Every scalar type read from CSV, rendered as Flink's client does; an all-empty row is all NULL.
CREATE TABLE t (
  b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dc DECIMAL(12, 4),
  c CHAR(3), v VARCHAR(30), dt DATE, tm TIME(0), ts TIMESTAMP(6), ms BIGINT
) WITH ('connector' = 'filesystem', 'path' = '$DATA/types.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
