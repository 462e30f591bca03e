-- How the client splits a script into statements (as Flink 2.3's client): a ';' inside a string,
-- a `quoted name`, a comment or a hint does not end a statement, even at the end of a line.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 'a;b' AS s, 'it''s; ok' AS t, 1 AS `x;y`;
SELECT 'multi;
line; string' AS m;
SELECT 2 AS v /* a; comment
spanning; lines */;
SELECT 4 AS z -- trailing; comment
;
SELECT 5 AS h
-- the trailing comment keeps the statement open;
;
-- a comment after the last statement; it is not a statement
