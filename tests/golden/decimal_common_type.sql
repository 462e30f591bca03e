-- The common type of two DECIMALs (COALESCE, CASE, IF, GREATEST, UNION ALL) keeps the whole digits
-- of both, at most 38, and gives up scale when 38 digits do not hold both: DECIMAL(38, 0) with
-- 0.1 is DECIMAL(38, 0), so the 0.1 rounds to 0 (half up); found by the differential tester.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
CREATE TEMPORARY VIEW amounts (id, big, wide, frac) AS
  VALUES (1, CAST(NULL AS DECIMAL(38, 0)), CAST(12.3456789 AS DECIMAL(30, 10)), CAST(0.75 AS DECIMAL(37, 2))),
         (2, CAST(42 AS DECIMAL(38, 0)), CAST(NULL AS DECIMAL(30, 10)), CAST(NULL AS DECIMAL(37, 2)));
SELECT id,
       COALESCE(big, 0.1) AS c1,
       COALESCE(big, 0.5) AS c2,
       CASE WHEN big IS NULL THEN 2.5 ELSE big END AS c3,
       COALESCE(wide, CAST(0.123456789012345678 AS DECIMAL(30, 21))) AS c4,
       COALESCE(frac, CAST(1.23456 AS DECIMAL(10, 5))) AS c5,
       COALESCE(CAST(id AS BIGINT), 0.1) AS c6
FROM amounts;
SELECT TYPEOF(COALESCE(big, 0.1)) AS t1, TYPEOF(COALESCE(wide, CAST(0.5 AS DECIMAL(30, 20)))) AS t2,
       TYPEOF(COALESCE(frac, CAST(1 AS DECIMAL(10, 5)))) AS t3, TYPEOF(COALESCE(CAST(id AS BIGINT), 0.1)) AS t4
FROM amounts WHERE id = 1;
SELECT id, x FROM (SELECT id, big AS x FROM amounts UNION ALL SELECT id, frac AS x FROM amounts);
