-- A cast Flink does not allow.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT CAST(TRUE AS DATE);
