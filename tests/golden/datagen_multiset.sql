-- datagen MULTISET columns: element -> count as Flink generates them (a map, so an element drawn
-- twice keeps one count), printed {elem=count}; UNNEST yields each element count times.
CREATE TABLE bag (id INT, m MULTISET<INT>) WITH (
  'connector' = 'datagen', 'number-of-rows' = '4',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '4',
  'fields.m.length' = '3', 'fields.m.element.min' = '1', 'fields.m.element.max' = '3');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT id, m, CARDINALITY(m) AS n FROM bag;
SELECT id, x, COUNT(*) AS c FROM bag CROSS JOIN UNNEST(bag.m) AS u(x) GROUP BY id, x;
