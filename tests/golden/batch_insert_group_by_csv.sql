-- Batch mode: INSERT INTO a filesystem csv table (insert-only) of a GROUP BY is accepted, as
-- Flink's insert-only batch plan is; the file holds the final count of each group once (issue 19:
-- weir refused it with "doesn't support consuming update and delete changes"). Also a print sink
-- (final rows only) and a join of two aggregates.
SET 'execution.runtime-mode' = 'batch';
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE clicks (username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
CREATE TABLE counts (username STRING, n BIGINT)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/counts', 'format' = 'csv');
INSERT INTO counts SELECT username, COUNT(*) FROM clicks GROUP BY username;
SELECT * FROM counts ORDER BY username;
CREATE TABLE url_users (url STRING, users BIGINT, first_user STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/url_users', 'format' = 'csv');
INSERT INTO url_users SELECT url, COUNT(DISTINCT username), MIN(username) FROM clicks GROUP BY url;
SELECT * FROM url_users ORDER BY url;
CREATE TABLE printed (username STRING, n BIGINT, urls BIGINT) WITH ('connector' = 'print');
INSERT INTO printed
SELECT c.username, c.n, u.urls FROM
  (SELECT username, COUNT(*) AS n FROM clicks GROUP BY username) c
  JOIN (SELECT username, COUNT(DISTINCT url) AS urls FROM clicks GROUP BY username) u
  ON c.username = u.username WHERE c.n > 1;
