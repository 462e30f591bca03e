-- A function called with the wrong argument type.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT UPPER(42);
