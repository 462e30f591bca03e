-- Batch mode: OVER windows with any ORDER BY, PARTITION BY or none, ROWS and RANGE frames.
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE scores (name STRING, team STRING, score INT, d DATE)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/over_scores.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- ranking functions: peers share RANK / DENSE_RANK / CUME_DIST; NULL sorts first ascending
SELECT team, name, score,
  ROW_NUMBER() OVER w AS rn, RANK() OVER w AS rk, DENSE_RANK() OVER w AS drk,
  PERCENT_RANK() OVER w AS prk, CUME_DIST() OVER w AS cd, NTILE(2) OVER w AS nt
FROM scores WINDOW w AS (PARTITION BY team ORDER BY score);
-- descending: NULL last
SELECT team, name, score, RANK() OVER (PARTITION BY team ORDER BY score DESC) AS rk FROM scores;
-- aggregates over the default frame (RANGE UNBOUNDED PRECEDING to CURRENT ROW: peers included)
SELECT team, name, score,
  SUM(score) OVER w AS s, COUNT(score) OVER w AS c, COUNT(*) OVER w AS n, AVG(score) OVER w AS a,
  MIN(name) OVER w AS mi, MAX(name) OVER w AS ma
FROM scores WINDOW w AS (PARTITION BY team ORDER BY score);
-- explicit frames
SELECT team, name, score,
  SUM(score) OVER (PARTITION BY team ORDER BY name ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2,
  COUNT(*) OVER (PARTITION BY team ORDER BY name ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest,
  SUM(score) OVER (PARTITION BY team ORDER BY name ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS nxt2
FROM scores;
SELECT team, name, score,
  COUNT(*) OVER (PARTITION BY team ORDER BY score RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS near5,
  SUM(score) OVER (PARTITION BY team ORDER BY score RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS tail,
  MAX(name) OVER (PARTITION BY team ORDER BY score DESC RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS m3
FROM scores;
SELECT name, d, COUNT(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW) AS two_days
FROM scores;
-- no ORDER BY: the whole partition; no PARTITION BY: the whole input
SELECT team, name, SUM(score) OVER (PARTITION BY team) AS team_sum, COUNT(*) OVER () AS total,
  ROW_NUMBER() OVER (ORDER BY score DESC, name) AS overall
FROM scores;
-- LAG / LEAD with offset and default, FIRST_VALUE / LAST_VALUE over frames, calls in expressions
SELECT team, name, score,
  LAG(name) OVER w AS before1, LEAD(name, 2, 'none') OVER w AS after2,
  score - LAG(score, 1, 0) OVER w AS delta,
  FIRST_VALUE(name) OVER w AS first_name,
  LAST_VALUE(name) OVER (PARTITION BY team ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_name
FROM scores WINDOW w AS (PARTITION BY team ORDER BY d);
-- over the final rows of an updating input
SELECT team, total, RANK() OVER (ORDER BY total DESC) AS place
FROM (SELECT team, SUM(score) AS total FROM scores GROUP BY team);
-- a filter on the rank is still a Top-N
SELECT * FROM (SELECT team, name, ROW_NUMBER() OVER (PARTITION BY team ORDER BY name DESC) AS rn FROM scores) WHERE rn = 1;
EXPLAIN SELECT team, name, ROW_NUMBER() OVER (PARTITION BY team ORDER BY score DESC) AS rn FROM scores;
EXPLAIN SELECT name, SUM(score) OVER (ORDER BY d ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS s, COUNT(*) OVER () AS n FROM scores;
EXPLAIN SELECT team, COUNT(*) OVER (PARTITION BY team) AS n,
  LAG(score) OVER (PARTITION BY team ORDER BY d) AS l FROM scores;
