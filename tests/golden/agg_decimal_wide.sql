-- GROUP BY over DECIMAL columns, insert-only (the group aggregate's one-lookup path): SUM of
-- DECIMAL(10, 2) / (24, 4) / (38, 0) as DECIMAL(38, s) with a sum leaving 38 digits becoming NULL
-- and restarting at the next value, MIN / MAX of compact and wide DECIMALs, a FILTER, NULL inputs
-- (a key whose first values are NULL), AVG alone (with SUM of the same column Flink plans $SUM0).
CREATE TABLE t (k INT, a DECIMAL(10, 2), w DECIMAL(24, 4), big DECIMAL(38, 0), f BOOLEAN)
WITH ('connector' = 'filesystem', 'path' = '$DATA/decimal_wide.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT k, COUNT(*) AS n, SUM(a) AS sa, SUM(w) AS sw, SUM(big) AS sb, MIN(a) AS mina, MAX(w) AS maxw,
  MAX(big) AS maxb, MIN(big) AS minb, SUM(a) FILTER (WHERE f) AS saf, COUNT(big) AS nb
FROM t GROUP BY k;
SELECT k, AVG(a) AS aa, AVG(w) AS aw, AVG(big) AS ab FROM t GROUP BY k;
