-- A typo in a select list without FROM: the expected tokens are those that may follow a select
-- item there (no WHERE, GROUP BY, ... without FROM).
SELECT 1 b c;
