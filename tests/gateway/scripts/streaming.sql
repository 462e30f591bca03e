SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'streaming';
CREATE TABLE src (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '5');
SELECT k % 2 AS g, COUNT(*) AS c FROM src GROUP BY k % 2;
SELECT nope FROM src;
