-- CREATE TABLE ... AS SELECT: the new table takes the query's columns (names, types; time
-- attributes dropped) and the query is inserted into it as a job. INSERT OVERWRITE in batch mode
-- replaces an unpartitioned table's data, or only the partitions the query writes; in streaming
-- mode and on sinks without overwrite support it fails (tests/errors/overwrite_*).
CREATE TABLE orders (order_id INT, customer_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE big_orders WITH ('connector' = 'filesystem', 'path' = '$TMP/big', 'format' = 'csv', 'csv.null-literal' = '')
  AS SELECT order_id, customer_id, amount * 2 AS doubled, ts FROM orders WHERE amount > 50;
DESCRIBE big_orders;
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM big_orders ORDER BY order_id;
-- a name that exists already: IF NOT EXISTS does nothing
CREATE TABLE IF NOT EXISTS big_orders WITH ('connector' = 'filesystem', 'path' = '$TMP/big2', 'format' = 'csv', 'csv.null-literal' = '')
  AS SELECT order_id FROM orders;

INSERT OVERWRITE big_orders SELECT order_id, customer_id, amount, ts FROM orders WHERE order_id <= 2;
SELECT * FROM big_orders ORDER BY order_id;

CREATE TABLE by_customer (order_id INT, amount DECIMAL(10, 2), customer_id INT) PARTITIONED BY (customer_id)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/by_customer', 'format' = 'csv', 'csv.null-literal' = '');
INSERT INTO by_customer SELECT order_id, amount, customer_id FROM orders;
-- only the partition of customer 101 is replaced
INSERT OVERWRITE by_customer SELECT 0, CAST(1 AS DECIMAL(10, 2)), customer_id FROM orders WHERE customer_id = 101 LIMIT 1;
SELECT customer_id, COUNT(*) AS n, SUM(amount) AS total FROM by_customer GROUP BY customer_id ORDER BY customer_id;
SELECT COUNT(*) AS n FROM big_orders;
