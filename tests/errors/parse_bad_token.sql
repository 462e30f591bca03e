-- A stray token after the statement.
SELECT 1 2;
