-- GROUPING SETS, ROLLUP and CUBE with GROUPING / GROUPING_ID / GROUP_ID: a NULL key of the data
-- and a rolled-up key both print NULL; GROUPING tells them apart.
CREATE TABLE staff (id INT, name STRING, dept INT, gender STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/staff.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE staff_changes (id INT, dept INT, gender STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/staff_changes.csv', 'format' = 'changelog-csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
EXPLAIN SELECT dept, gender, COUNT(*) AS c, GROUPING(dept) AS gd, GROUPING_ID(dept, gender) AS gid, GROUP_ID() AS g FROM staff GROUP BY CUBE (dept, gender);
EXPLAIN SELECT MOD(dept, 20) AS d, COUNT(*) AS c FROM staff GROUP BY ROLLUP (MOD(dept, 20));
-- streaming over an updating input: every grouping set retracts
SELECT dept, gender, COUNT(*) AS c, GROUPING_ID(dept, gender) AS gid FROM staff_changes GROUP BY ROLLUP (dept, gender);
SET 'execution.runtime-mode' = 'batch';
SELECT dept, gender, COUNT(*) AS c, GROUPING(dept) AS gd, GROUPING(gender) AS gg, GROUPING_ID(dept, gender) AS gid, GROUP_ID() AS g
FROM staff GROUP BY CUBE (dept, gender) ORDER BY gid, dept, gender;
SELECT dept, gender, MAX(name) AS last_name FROM staff GROUP BY GROUPING SETS ((dept), (gender), ()) ORDER BY dept, gender;
SELECT dept, COUNT(*) AS c FROM staff GROUP BY ROLLUP (dept) HAVING GROUPING(dept) = 1 OR COUNT(*) > 1 ORDER BY dept;
-- several items: their cross product (dept) x ((gender), ())
SELECT dept, gender, COUNT(id) AS c FROM staff WHERE dept IS NOT NULL GROUP BY dept, ROLLUP (gender) ORDER BY dept, gender;
