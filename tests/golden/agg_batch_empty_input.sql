-- A global aggregate (no GROUP BY) over no rows: in batch mode one row of the aggregates' values
-- over nothing (COUNT 0, SUM/AVG/MIN/MAX/LISTAGG NULL, COUNT DISTINCT 0), at parallelism 1 and 2,
-- whether the filter is decided by the data or by the planner; with HAVING or GROUP BY, no row.
-- In streaming mode the same query gives no row (Flink 2.3 does both).
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS c, COUNT(url) AS cu, SUM(CHAR_LENGTH(url)) AS chars, AVG(CHAR_LENGTH(url)) AS avg_chars,
       MIN(username) AS first_user, MAX(ts) AS last_ts, COUNT(DISTINCT url) AS urls, LISTAGG(username) AS users
FROM clicks WHERE username = 'nobody';
SELECT COUNT(*) AS c FROM clicks WHERE 1 = 0;
SELECT SUM(CHAR_LENGTH(url)) AS chars FROM clicks WHERE username = 'nobody' HAVING COUNT(*) > 0;
SELECT COUNT(*) AS c FROM clicks WHERE username = 'nobody' GROUP BY username;
SET 'parallelism.default' = '2';
SELECT COUNT(*) AS c, SUM(CHAR_LENGTH(url)) AS chars FROM clicks WHERE username = 'nobody';
SELECT COUNT(*) AS c, COUNT(DISTINCT username) AS users FROM clicks;
SET 'execution.runtime-mode' = 'streaming';
SET 'parallelism.default' = '1';
SELECT COUNT(*) AS c, SUM(CHAR_LENGTH(url)) AS chars FROM clicks WHERE username = 'nobody';
