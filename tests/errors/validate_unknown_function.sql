-- A function that does not exist.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT frobnicate(1);
