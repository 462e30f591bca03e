-- VALUES, a WITH clause and a subquery in FROM.
SET 'sql-client.execution.result-mode' = 'tableau';
WITH v (id, word) AS (VALUES (1, 'one'), (2, 'two'), (3, 'three'))
SELECT id * 10 AS id10, word, CHAR_LENGTH(word) AS len FROM (SELECT * FROM v WHERE id <> 2) AS sub;
