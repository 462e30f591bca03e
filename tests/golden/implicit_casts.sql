-- Comparisons and arithmetic across numeric types widen to the common type.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 1 = 1.0 AS eq, CAST(2 AS TINYINT) + 300 AS widened, CAST(5 AS BIGINT) * 2.5 AS mixed, 10000000000 + 1 AS big, 0.1 + 0.2 AS dec_sum, 0.1e0 + 0.2e0 AS dbl_sum;
