-- ORDER BY ... LIMIT on a stream is a Top-N over the whole input (SortLimit); LIMIT alone is
-- Limit. Both run on one subtask behind Exchange(distribution=[single]).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE scores (id INT, name STRING, score INT, ts TIMESTAMP(3)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/scores.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE score_changes (id INT, name STRING, score INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/score_changes.csv', 'format' = 'changelog-csv');
-- append-only input: AppendFastStrategy, a row that leaves the top 3 is deleted
SELECT name, score FROM scores ORDER BY score DESC LIMIT 3;
-- NULLs sort first ascending (Flink's default), OFFSET skips the first rows of the order
SELECT name, score FROM scores ORDER BY score LIMIT 2 OFFSET 1;
-- ordinal, alias and an expression that is not selected
SELECT name AS n, score FROM scores ORDER BY 2 DESC, n FETCH FIRST 2 ROWS ONLY;
SELECT name FROM scores ORDER BY score * -1 NULLS LAST, id DESC LIMIT 2;
-- an updating input: RetractStrategy
SELECT name, score FROM score_changes ORDER BY score DESC LIMIT 2;
-- an aggregate's monotonic result: UpdateFastStrategy
SELECT score, COUNT(*) AS cnt FROM scores GROUP BY score ORDER BY cnt DESC, score LIMIT 2;
-- LIMIT alone keeps the first rows (insert-only on an append-only input)
SELECT id, name FROM scores LIMIT 3;
SELECT id, name FROM score_changes LIMIT 2;
-- LIMIT inside a subquery and a view
CREATE VIEW top2 AS SELECT id, name, score FROM scores ORDER BY score DESC LIMIT 2;
SELECT name FROM top2 WHERE score > 90;
SELECT COUNT(*) AS c FROM (SELECT id FROM scores LIMIT 4);
-- a subquery's ORDER BY without LIMIT is dropped (Calcite), so no sort error here
SELECT MAX(score) AS m FROM (SELECT score FROM scores ORDER BY name);
-- FETCH 0: nothing (Flink prunes the plan to an empty Values)
SELECT name FROM scores ORDER BY score LIMIT 0;
EXPLAIN SELECT name, score FROM scores ORDER BY score DESC LIMIT 3;
EXPLAIN SELECT name FROM scores ORDER BY score * -1 NULLS LAST, id DESC LIMIT 2 OFFSET 1;
EXPLAIN SELECT name, score FROM score_changes ORDER BY score DESC LIMIT 2;
EXPLAIN SELECT score, COUNT(*) AS cnt FROM scores GROUP BY score ORDER BY cnt DESC, score LIMIT 2;
EXPLAIN SELECT id, name FROM scores LIMIT 3;
EXPLAIN SELECT name FROM scores ORDER BY score LIMIT 0;
