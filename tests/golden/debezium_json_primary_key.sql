-- 'debezium-json' with a PRIMARY KEY: without 'table.exec.source.cdc-events-duplicate' the events
-- are read as they are; with it ChangelogNormalize (keyed by the primary key) drops the duplicated
-- events and updates that change nothing, and, as the projection reaches the source, updates of
-- columns the query does not read.
CREATE TABLE products (id INT, name STRING, price DECIMAL(6, 2), note STRING,
  PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_products.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
EXPLAIN CHANGELOG_MODE SELECT * FROM products;
SELECT COUNT(*) AS n, SUM(price) AS total FROM products;
SET 'table.exec.source.cdc-events-duplicate' = 'true';
EXPLAIN CHANGELOG_MODE SELECT * FROM products;
SELECT * FROM products;
SELECT id, name, price FROM products;
SELECT COUNT(*) AS n, SUM(price) AS total FROM products;
