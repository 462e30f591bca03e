-- DECIMAL arithmetic keeps Flink's precision and scale.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT CAST(1.10 AS DECIMAL(4, 2)) + CAST(2.005 AS DECIMAL(5, 3)) AS s, CAST(3 AS DECIMAL(10, 2)) * CAST(1.5 AS DECIMAL(3, 1)) AS m,
  CAST(1 AS DECIMAL(10, 2)) / CAST(3 AS DECIMAL(10, 2)) AS d, CAST(-12.345 AS DECIMAL(6, 3)) AS neg, CAST(99.995 AS DECIMAL(5, 2)) AS rounded;
