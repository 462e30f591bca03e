-- A processing-time temporal join against a table that is no lookup source and has no primary key:
-- Flink 2.3's message (measured; Flink appends the physical plan, weir does not).
CREATE TABLE orders (id INT, cur STRING, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE rates (cur STRING, rate DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT o.id, r.rate FROM orders o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON o.cur = r.cur;
