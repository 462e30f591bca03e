-- INTERSECT and EXCEPT of a changelog source with a PRIMARY KEY and itself: each side's
-- DISTINCT over the key (cast to STRING, still unique) is removed as Flink removes it, and the
-- semi / anti join follows the source's updates and deletes.
CREATE TABLE products (id INT, name STRING, price DECIMAL(6, 2), note STRING,
  PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_products.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT CAST(id AS STRING) AS u FROM products INTERSECT SELECT CAST(id AS STRING) AS u FROM products;
SELECT CAST(id AS STRING) AS u FROM products EXCEPT SELECT CAST(id AS STRING) AS u FROM products WHERE price > 10;
EXPLAIN CHANGELOG_MODE SELECT CAST(id AS STRING) AS u FROM products INTERSECT SELECT CAST(id AS STRING) AS u FROM products;
