-- GROUP BY expressions named after the select items written the same way (their aliases, or
-- EXPR$<position> without one), as Flink's plans name them; the results are the same either way.
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (2, 'b'), (3, 'a'), (4, 'c')) AS v(x, s);
SELECT UPPER(s) AS u, COUNT(*) AS c FROM t GROUP BY UPPER(s);
SELECT COUNT(*) AS c, UPPER(s) AS u FROM t GROUP BY UPPER(s);
SELECT UPPER(s), COUNT(*) AS c FROM t GROUP BY UPPER(s);
SELECT x + 1 AS y, s AS ss, SUM(x) AS total FROM t GROUP BY x + 1, s;
SELECT MOD(x, 2) AS parity, COUNT(*) FROM t GROUP BY MOD(x, 2) HAVING COUNT(*) > 1;
