-- A number out of the range of the DECIMAL it is cast to is NULL, as in Flink (not an error): from
-- integer, decimal and approximate values, in a projection, a nested cast and a filter. (The columns
-- are nullable: Flink types a cast of a NOT NULL column NOT NULL and then fails on the overflow's NULL.)
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW readings AS
  SELECT * FROM (VALUES (1, CAST(586386581342 AS BIGINT), 12.345, 1e12), (2, CAST(42 AS BIGINT), 99999.999, 7.25),
    (3, CAST(NULL AS BIGINT), CAST(NULL AS DECIMAL(8, 3)), CAST(NULL AS DOUBLE)))
    AS v(id, big, amount, approx);
SELECT id, CAST(big AS DECIMAL(10, 2)) AS d1, CAST(CAST(big AS DECIMAL(10, 2)) AS INT) AS d2,
  CAST(amount AS DECIMAL(5, 2)) AS d3, CAST(approx AS DECIMAL(6, 1)) AS d4 FROM readings;
SELECT id FROM readings WHERE CAST(big AS DECIMAL(4, 0)) IS NULL;
