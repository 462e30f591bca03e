-- A bare NULL cell of VALUES is rejected even when another row gives the column a type, as in
-- Flink 2.3.0.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (VALUES (1, NULL), (2, 'x')) AS v(a, b);
