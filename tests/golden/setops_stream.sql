-- INTERSECT / EXCEPT [ALL] over an updating input: NULLs are equal, retractions flow through.
CREATE TABLE l (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_left.csv', 'format' = 'changelog-csv');
CREATE TABLE r (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_right.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM l INTERSECT SELECT * FROM r;
SELECT * FROM l EXCEPT SELECT * FROM r;
SELECT * FROM l INTERSECT ALL SELECT * FROM r;
SELECT * FROM l EXCEPT ALL SELECT * FROM r;
-- column types widen as in UNION (INT with BIGINT)
SELECT k FROM r EXCEPT SELECT CAST(k AS BIGINT) FROM l;
