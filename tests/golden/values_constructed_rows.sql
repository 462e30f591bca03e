-- VALUES whose rows are not all literals (a CAST, a function call, an ARRAY): Calcite plans each
-- row as a projection over the one-row Values and unions them; the column types are the rows'
-- common types. Literal-only rows stay one Values (negative numbers are literals). The rows, the
-- plans and a compiled plan of such an INSERT.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM (VALUES (1, CAST(NULL AS STRING), 2.5), (2, 'b', 10), (-3, UPPER('c'), CAST(NULL AS DECIMAL(4, 1)))) AS v(id, s, d)
ORDER BY id;
SET 'execution.runtime-mode' = 'streaming';
SELECT id, s, d * 2 AS d2 FROM (VALUES (1, CAST(NULL AS STRING), 2.5), (2, 'b', 10)) AS v(id, s, d) WHERE id > 1;
SELECT * FROM (VALUES (1, ARRAY[1, 2], UPPER('c'))) AS v(id, tags, u);
EXPLAIN VALUES (1, CAST(NULL AS STRING)), (2, 'bb');
EXPLAIN VALUES (-1, 'a'), (+2, 'b');
CREATE TABLE tags (id INT, tags ARRAY<INT>) WITH ('connector' = 'blackhole');
EXPLAIN INSERT INTO tags VALUES (1, ARRAY[1, 2]), (2, CAST(NULL AS ARRAY<INT>));
COMPILE PLAN '$TMP/array.json' FOR INSERT INTO tags VALUES (1, ARRAY[1, 2]), (2, CAST(NULL AS ARRAY<INT>));
