-- a parallelism above the runtime's limit fails with a message naming it (it was clamped to 64)
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '5000';
SELECT * FROM (VALUES (1), (2)) AS t(a);
