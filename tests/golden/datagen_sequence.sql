-- A bounded datagen source with sequence and bounded random fields.
CREATE TABLE g (
  id INT, v INT
) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5',
  'fields.v.min' = '7', 'fields.v.max' = '7');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, v, id * v AS p FROM g;
