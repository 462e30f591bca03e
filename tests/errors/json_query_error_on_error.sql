-- ERROR ON ERROR in strict mode raises Flink's message for a scalar where JSON_QUERY needs an
-- object or array.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT JSON_QUERY('{"a": 1}', 'strict $.a' ERROR ON ERROR);
