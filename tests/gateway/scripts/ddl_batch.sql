SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE orders (id INT, product STRING, amount DECIMAL(10, 2)) WITH ('connector' = 'datagen', 'number-of-rows' = '4', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '4', 'fields.product.length' = '3');
SHOW TABLES;
SELECT id, id * 10 AS ten, CAST(id AS DOUBLE) / 4 AS q, id % 2 = 0 AS even FROM orders;
SELECT * FROM (VALUES (1, 'a', DATE '2024-01-02'), (2, CAST(NULL AS STRING), DATE '2024-03-04')) AS t(k, s, d);
SELECT * FROM missing_table;
