-- JSON_VALUE takes NULL | ERROR | DEFAULT ON EMPTY / ON ERROR only.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT JSON_VALUE('{}', '$.a' EMPTY ARRAY ON EMPTY);
