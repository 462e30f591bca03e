-- 'debezium-json': Debezium change events read as a changelog ("c" and "r" +I, "u" -U/+U, "d" -D;
-- other members such as "source", "ts_ms" and unknown row fields are ignored, a missing one is
-- NULL, an empty line gives no rows), then aggregated with retractions.
CREATE TABLE orders (id INT, customer STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_orders.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT * FROM orders;
SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
SELECT COUNT(*) AS n, MAX(amount) AS top FROM orders WHERE customer IS NOT NULL;
EXPLAIN CHANGELOG_MODE SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
