-- A ROW_NUMBER Top-1 that is not a deduplication, over an insert-only input: Flink 2.3 declares it
-- insert-only (changelogMode=[I]) unless it sorts on one column descending or mini-batch is on, so
-- a new first row goes out as +U without -U, and operators reading the Top-1 read it as insert-only
-- (docs/user-guide.md, Top-N). Recorded from Flink 2.3.
CREATE TABLE scores (player STRING, team STRING, points INT, seq INT)
WITH ('connector' = 'filesystem', 'path' = '$DATA/top1_scores.csv', 'format' = 'csv');
CREATE TABLE firsts (team STRING, player STRING, points INT)
WITH ('connector' = 'filesystem', 'path' = '$TMP/firsts', 'format' = 'csv');
CREATE TEMPORARY VIEW lowest AS
SELECT team, player, points FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY team ORDER BY points) AS rn FROM scores) WHERE rn = 1;
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM lowest;
SELECT team, player, points FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY team ORDER BY points DESC) AS rn FROM scores) WHERE rn <= 1;
SELECT team, player, points FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY team ORDER BY points DESC, seq) AS rn FROM scores) WHERE rn < 2;
SELECT team, player, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY team ORDER BY seq DESC) AS rn FROM scores) WHERE rn = 1;
SELECT COUNT(*) AS n, SUM(points) AS total FROM lowest;
EXPLAIN CHANGELOG_MODE SELECT COUNT(*) AS n, SUM(points) AS total FROM lowest;
SET 'table.dml-sync' = 'true';
INSERT INTO firsts SELECT * FROM lowest;
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '1000';
SELECT * FROM lowest;
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM firsts ORDER BY team, points;
