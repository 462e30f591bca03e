-- INTERSECT / EXCEPT [ALL] in batch mode: the final sets and bags.
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
CREATE TABLE l (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_left.csv', 'format' = 'changelog-csv');
CREATE TABLE r (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_right.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM l INTERSECT SELECT * FROM r ORDER BY k, v;
SELECT * FROM l EXCEPT SELECT * FROM r ORDER BY k, v;
SELECT * FROM r EXCEPT SELECT * FROM l ORDER BY k, v;
SELECT * FROM l INTERSECT ALL SELECT * FROM r ORDER BY k, v;
SELECT * FROM r UNION ALL SELECT * FROM r EXCEPT ALL SELECT * FROM l ORDER BY k, v;
SELECT v FROM r INTERSECT ALL SELECT v FROM r ORDER BY v;
-- INTERSECT binds tighter than EXCEPT: r EXCEPT (r INTERSECT l)
SELECT k FROM r EXCEPT SELECT k FROM r INTERSECT SELECT k FROM l ORDER BY k;
