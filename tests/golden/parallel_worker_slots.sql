-- More subtasks than worker threads: 4 subtasks share 1 worker slot (weir.exec.worker-threads);
-- a subtask gives its slot back while it waits, so the job neither deadlocks nor changes results.
CREATE TABLE orders (order_id BIGINT, customer STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '4';
SET 'weir.exec.worker-threads' = '1';
SELECT COUNT(DISTINCT customer) AS customers, MAX(amount) AS biggest FROM orders;
SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders;
SET 'weir.exec.worker-threads' = '4';
SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders;
