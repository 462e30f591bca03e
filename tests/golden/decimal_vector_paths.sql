-- DECIMAL casts and products over many rows at once: integers of every width into a DECIMAL wide
-- enough for all their digits, a DECIMAL into one of the same scale and fewer digits (NULL where
-- the value does not fit), and products whose scale is the sum of their operands' scales, exact,
-- beyond 38 digits (NULL) and beyond 128 bits (NULL).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW nums AS
  SELECT * FROM (VALUES
    (1, CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 2147483647, CAST(9223372036854775807 AS BIGINT),
        CAST(123456.789 AS DECIMAL(12, 3)), CAST('1000000000000000000000000000000' AS DECIMAL(38, 0))),
    (2, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -2147483647, CAST(-9223372036854775807 AS BIGINT),
        CAST(-99999.999 AS DECIMAL(12, 3)), CAST('-1000000000000000000000000000000' AS DECIMAL(38, 0))),
    (3, CAST(0 AS TINYINT), CAST(7 AS SMALLINT), 42, CAST(-17 AS BIGINT),
        CAST(-123456.789 AS DECIMAL(12, 3)), CAST(5 AS DECIMAL(38, 0))),
    (4, CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS BIGINT),
        CAST(NULL AS DECIMAL(12, 3)), CAST(NULL AS DECIMAL(38, 0))))
  AS v(id, t, s, i, b, d, w);
SELECT id, CAST(t AS DECIMAL(5, 2)) AS t5, CAST(s AS DECIMAL(7, 2)) AS s7, CAST(i AS DECIMAL(12, 2)) AS i12,
  CAST(b AS DECIMAL(21, 2)) AS b21, CAST(b AS DECIMAL(19, 0)) AS b19 FROM nums;
SELECT id, CAST(d AS DECIMAL(8, 3)) AS d8, CAST(d AS DECIMAL(9, 3)) AS d9, CAST(d AS DECIMAL(20, 3)) AS d20,
  CAST(w AS DECIMAL(31, 0)) AS w31, CAST(w AS DECIMAL(30, 0)) AS w30 FROM nums;
SELECT id, 0.908 * b AS euro, d * i AS di, d * 2.5 AS d25, t * 1.05 AS t105, w * s AS ws, w * d AS wd, w * b AS wb FROM nums;
