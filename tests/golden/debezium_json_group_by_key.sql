-- A GROUP BY whose keys contain the source's PRIMARY KEY, with only SUM/MIN/MAX, computes nothing:
-- Flink removes the aggregate (FlinkAggregateRemoveRule) and an update of the source stays an
-- update (-U/+U) instead of a retraction and a new group (-D/+I). Also SELECT DISTINCT over the key.
CREATE TABLE products (id INT, name STRING, price DECIMAL(6, 2), note STRING,
  PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_products.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT id, MAX(name) AS name, SUM(price) AS price FROM products GROUP BY id;
SELECT DISTINCT id, UPPER(name) AS name FROM products;
-- not removed: COUNT, or keys without the primary key
SELECT id, COUNT(*) AS n FROM products GROUP BY id;
SELECT name, MAX(price) AS price FROM products GROUP BY name;
