-- JSON_VALUE ... RETURNING supports character, boolean and numeric types.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT JSON_VALUE('{"a": "2024-01-01"}', '$.a' RETURNING DATE);
