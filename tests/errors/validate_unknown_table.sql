-- A table that does not exist.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM no_such_table;
