-- SHOW CREATE VIEW of named windows: OVER `w` and the WINDOW clause after HAVING (Calcite puts
-- each further window on a line of its own). Batch mode: weir checks a view's streaming OVER
-- windows when it is created (docs/user-guide.md, differences).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE u (a INT, c INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE VIEW v13 AS SELECT t.a, SUM(c) OVER w AS s, MAX(c) OVER w2 AS m FROM t JOIN u ON t.a = u.a WINDOW w AS (PARTITION BY b ORDER BY c ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), w2 AS (ORDER BY c);
SHOW CREATE VIEW v13;
CREATE VIEW v18 AS SELECT a, COUNT(*) OVER w AS n FROM t WHERE a > 1 GROUP BY a, b HAVING COUNT(*) > 0 WINDOW w AS (PARTITION BY b ORDER BY a) ORDER BY a LIMIT 3;
SHOW CREATE VIEW v18;
