-- The distinct split with several bucket columns (Flink's SplitAggregateRule with an Expand):
-- each DISTINCT column gets its own grouping set (keys + MOD(HASH_CODE(col), 1024)), the rows
-- are expanded once per set with $e = the set's id, and the PARTIAL aggregate filters each call
-- by ($e = n) AS $g_n; one bucket column needs no Expand. Then the window TVF split: a partial
-- WindowAggregate by the buckets and a final one on the window columns the rows carry.
CREATE TABLE orders (
  shop STRING, customer STRING, item STRING, qty INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/split_orders.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';

-- two DISTINCT columns, no keys: two sets, $e = 1 and 2
EXPLAIN SELECT COUNT(DISTINCT customer), SUM(DISTINCT qty) FROM orders;

-- two DISTINCT columns and a plain SUM: the SUM reads the keys-only set ($e = 3)
EXPLAIN SELECT shop, SUM(DISTINCT qty), SUM(qty), COUNT(DISTINCT customer) FROM orders GROUP BY shop;

-- MAX needs buckets of its own column too
EXPLAIN SELECT shop, COUNT(DISTINCT customer), MAX(item) FROM orders GROUP BY shop;

-- a FILTER of a call is ANDed into its $g_n
EXPLAIN SELECT shop, COUNT(DISTINCT customer) FILTER (WHERE qty > 2), COUNT(DISTINCT item), SUM(qty) FILTER (WHERE qty > 2)
FROM orders GROUP BY shop;

-- one bucket column: no Expand, the FILTERs stay as they are
EXPLAIN SELECT shop, COUNT(DISTINCT customer) FILTER (WHERE qty <> 2), SUM(qty) FILTER (WHERE qty <> 5) FROM orders GROUP BY shop;

-- results: the same as without the split
SELECT shop, COUNT(DISTINCT customer) AS customers, COUNT(DISTINCT item) AS items, SUM(qty) AS qty, MAX(item) AS top_item
FROM orders GROUP BY shop;
SET 'table.optimizer.distinct-agg.split.enabled' = 'false';
SELECT shop, COUNT(DISTINCT customer) AS customers, COUNT(DISTINCT item) AS items, SUM(qty) AS qty, MAX(item) AS top_item
FROM orders GROUP BY shop;
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';

-- mini-batch: LocalGroupAggregate / IncrementalGroupAggregate / GlobalGroupAggregate over the Expand
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 s';
SET 'table.exec.mini-batch.size' = '100';
EXPLAIN SELECT shop, COUNT(DISTINCT customer), COUNT(DISTINCT item) FROM orders GROUP BY shop;
SET 'table.optimizer.incremental-agg-enabled' = 'false';
EXPLAIN SELECT shop, COUNT(DISTINCT customer), COUNT(DISTINCT item) FROM orders GROUP BY shop;
RESET 'table.optimizer.incremental-agg-enabled';
RESET 'table.exec.mini-batch.enabled';

-- window TVF aggregate: partial WindowAggregate by MOD(HASH_CODE(customer), 1024), then the
-- final one on window_start / window_end (one phase, then Local/Global for each level)
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXPLAIN SELECT shop, window_start, window_end, COUNT(*), SUM(qty), COUNT(DISTINCT customer)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY shop, window_start, window_end;
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
EXPLAIN SELECT shop, window_start, window_end, COUNT(*), SUM(qty), COUNT(DISTINCT customer)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY shop, window_start, window_end;
SELECT shop, window_start, window_end, COUNT(*) AS n, SUM(qty) AS qty, COUNT(DISTINCT customer) AS customers
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY shop, window_start, window_end;
