-- A compiled plan's Values tuples are literals: a non-NULL ARRAY / MAP / ROW constant in a VALUES
-- row has no literal form there. COMPILE PLAN refuses it instead of writing NULL; a NULL of such
-- a type is a literal and compiles.
CREATE TABLE tags (id INT, tags ARRAY<INT>) WITH ('connector' = 'blackhole');
COMPILE PLAN '$TMP/null_array.json' FOR INSERT INTO tags VALUES (2, CAST(NULL AS ARRAY<INT>));
COMPILE PLAN '$TMP/array.json' FOR INSERT INTO tags VALUES (1, ARRAY[1, 2]), (2, CAST(NULL AS ARRAY<INT>));
