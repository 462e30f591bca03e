-- Distinct split with two-phase aggregation over a changelog (debezium-json) source: the final
-- GlobalGroupAggregate counts its records with the $SUM0 of the split COUNT(*) (Flink's
-- indexOfCountStar) instead of an extra count column; found by the differential tester, where
-- the job could not start ("input has 3 columns, expected 4").
CREATE TABLE products (id INT, name STRING, price DECIMAL(6, 2), note STRING,
  PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_products.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 s';
SET 'table.exec.mini-batch.size' = '1000';
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
EXPLAIN SELECT SUM(DISTINCT price) AS prices, COUNT(*) AS n FROM products;
SELECT SUM(DISTINCT price) AS prices, COUNT(*) AS n FROM products;
SELECT name, COUNT(DISTINCT note) AS notes, COUNT(*) AS n, MAX(price) AS top FROM products GROUP BY name;
