-- UNNEST of arrays, maps and rows in FROM: comma and CROSS JOIN, LEFT JOIN ... ON TRUE,
-- WITH ORDINALITY, a standalone UNNEST, and retractions flowing through the Correlate.
CREATE TABLE orders (id INT, items ARRAY<STRING>) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/unnest_items.csv', 'format' = 'csv');
CREATE TABLE changes (id INT, vals ARRAY<INT>) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/unnest_changes.csv', 'format' = 'changelog-csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';

SELECT id, item FROM orders, UNNEST(orders.items) AS t(item);

SELECT * FROM orders CROSS JOIN UNNEST(items) WITH ORDINALITY AS t(item, pos) WHERE item <> 'hat';

SELECT o.id, t.item FROM orders o LEFT JOIN UNNEST(o.items) AS t(item) ON TRUE;

SELECT * FROM UNNEST(ARRAY[3, 1, 2]) AS t(x);

SELECT * FROM UNNEST(ARRAY['a', 'b']) WITH ORDINALITY;

SELECT id, k, v FROM (VALUES (1, MAP['x', 10, 'y', 20]), (2, CAST(NULL AS MAP<STRING, INT>))) AS m(id, kv)
  CROSS JOIN UNNEST(kv) AS t(k, v);

SELECT id, name, n FROM (VALUES (1, ARRAY[ROW('ann', 3), ROW('bob', 4)])) AS r(id, people),
  UNNEST(r.people) AS p(name, n) WHERE n > 3;

-- an updating input: -U/-D of a row retract each of its element rows
SELECT id, v FROM changes CROSS JOIN UNNEST(vals) AS t(v);

SELECT id, v FROM changes LEFT JOIN UNNEST(vals) AS t(v) ON TRUE;

SELECT v, COUNT(*) AS c FROM changes, UNNEST(vals) AS t(v) GROUP BY v;

EXPLAIN SELECT id, item FROM orders, UNNEST(orders.items) AS t(item) WHERE item <> 'hat' AND id > 1;

EXPLAIN SELECT o.id, t.item, t.pos FROM orders o LEFT JOIN UNNEST(o.items) WITH ORDINALITY AS t(item, pos) ON TRUE;

EXPLAIN SELECT * FROM UNNEST(ARRAY[1, 2, 3]) AS t(x);

EXPLAIN SELECT * FROM (VALUES (1, ARRAY[ROW('ann', 3)])) AS r(id, people), UNNEST(r.people) AS p WHERE p.EXPR$1 > 1;

EXPLAIN CHANGELOG_MODE SELECT id, v FROM changes CROSS JOIN UNNEST(vals) AS t(v);

SET 'execution.runtime-mode' = 'batch';

SELECT id, item FROM orders CROSS JOIN UNNEST(items) AS t(item);

SELECT o.id, t.item, t.pos FROM orders o LEFT JOIN UNNEST(o.items) WITH ORDINALITY AS t(item, pos) ON TRUE;

EXPLAIN SELECT id, item FROM orders CROSS JOIN UNNEST(items) AS t(item);
