-- The client's messages for SET / RESET (known and unknown keys, with and without a key) and for
-- client commands typed in lower case.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'pipeline.name' = 'my job';
SET 'no.such.key' = 'x';
SET no.such.other = y;
RESET 'pipeline.name';
RESET 'no.such.key';
RESET;
SET 'sql-client.execution.result-mode' = 'tableau';
help;
SELECT 'after reset' AS s;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
EXPLAIN SELECT 1 AS x;
