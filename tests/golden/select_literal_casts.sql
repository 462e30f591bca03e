-- Casts of literals in SELECT lists, GROUP BY keys and aggregate arguments: Flink's logical plan
-- shows those it can do at planning time as literals (CAST('2024-02-29' AS DATE) is 2024-02-29),
-- keeps those that fail ('abc' to INT, '300' to TINYINT) and TRY_CAST as calls, and keeps the casts
-- of a WHERE condition; the results are the same either way.
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'b')) AS v(x, s);
SELECT x, CAST('2024-02-29' AS DATE) AS d, CAST('2024-02-29 23:59:59.999' AS TIMESTAMP(3)) AS ts,
       CAST('12:30:00' AS TIME) AS tm, CAST('12.5' AS DECIMAL(5, 2)) AS dc, CAST(' 7 ' AS BIGINT) AS b,
       CAST('1.5' AS DOUBLE) AS db, CAST('true' AS BOOLEAN) AS bo, CAST(2.5 AS INT) AS i FROM t;
SELECT x, TRY_CAST('abc' AS INT) AS bad, TRY_CAST('12' AS INT) AS good, CAST(CAST('5' AS INT) AS BIGINT) AS nest,
       s || CAST(12 AS STRING) AS c FROM t WHERE x > CAST('1' AS INT);
SELECT s, CASE WHEN COUNT(*) > 1 THEN CAST('2024-01-01' AS DATE) ELSE CAST('2025-01-01' AS DATE) END AS d,
       SUM(CAST('10' AS INT)) AS ten FROM t GROUP BY s;
