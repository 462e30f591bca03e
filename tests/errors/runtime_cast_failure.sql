-- A CAST that fails at run time fails the query.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT CAST('abc' AS INT);
