-- A debezium-json source under table.exec.source.cdc-events-duplicate reads only the columns its
-- query uses (then its primary key) below the DropUpdateBefore, as Flink's projection push-down
-- does; ChangelogNormalize still keys on the primary key.
CREATE TABLE products (id INT, name STRING, price DECIMAL(6, 2), note STRING,
  PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_products.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
SELECT price, name FROM products;
SELECT note, id FROM products;
SELECT COUNT(*) AS n FROM products;
SELECT name FROM products WHERE price > 1;
