-- Numeric functions and Flink's arithmetic result types (INT / INT is INT).
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 7 / 2 AS int_div, 7 % 3 AS int_mod, 7.0 / 2 AS dec_div, ABS(-4) AS ab, MOD(10, 4) AS md,
  ROUND(2.567, 2) AS rnd, FLOOR(2.7) AS fl, CEIL(2.1) AS ce, POWER(2, 10) AS pw, SQRT(16.0) AS sq,
  LN(1) AS lnv, LOG10(1000) AS lg, EXP(0) AS ex, 1.5e0 * 2 AS dbl, CAST(10 AS DECIMAL(5, 2)) / 3 AS d3;
