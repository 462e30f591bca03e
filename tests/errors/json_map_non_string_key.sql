-- The json format maps JSON objects to MAPs with string keys only.
CREATE TABLE t (m MAP<INT, STRING>) WITH ('connector' = 'filesystem', 'path' = '$DATA/json_types.json', 'format' = 'json');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
