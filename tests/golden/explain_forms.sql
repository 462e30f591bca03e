-- EXPLAIN in its three forms for a query, an INSERT and a statement set; the plan-reading steps
-- of the "how many tasks does one statement become" lesson with our own tables: the filter pushed
-- into the filesystem scan and kept in a Calc, the hash Exchange under the GroupAggregate, the
-- local-global [ADVICE], changelog modes, estimated costs and the JSON execution plan.
CREATE TABLE sales (sale_id BIGINT, shop_id BIGINT, amount DECIMAL(10, 2), sold_at TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE shop_totals (shop_id BIGINT, total DECIMAL(38, 2)) WITH ('connector' = 'blackhole');
CREATE TABLE big_sales (sale_id BIGINT, amount DECIMAL(10, 2)) WITH ('connector' = 'blackhole');

EXPLAIN PLAN FOR SELECT shop_id, SUM(amount) AS total FROM sales WHERE amount > 0 GROUP BY shop_id;

EXPLAIN SELECT shop_id, SUM(amount) AS total FROM sales WHERE amount > 0 GROUP BY shop_id;

EXPLAIN PLAN_ADVICE SELECT shop_id, COUNT(*) AS n FROM sales GROUP BY shop_id;

EXPLAIN CHANGELOG_MODE INSERT INTO shop_totals SELECT shop_id, SUM(amount) FROM sales WHERE amount > 0 GROUP BY shop_id;

EXPLAIN ESTIMATED_COST, CHANGELOG_MODE INSERT INTO big_sales SELECT sale_id, amount FROM sales WHERE amount > 1000;

EXPLAIN JSON_EXECUTION_PLAN INSERT INTO shop_totals SELECT shop_id, SUM(amount) FROM sales WHERE amount > 0 GROUP BY shop_id;

EXPLAIN STATEMENT SET BEGIN
INSERT INTO big_sales SELECT sale_id, amount FROM sales WHERE amount > 1000;
INSERT INTO shop_totals SELECT shop_id, SUM(amount) FROM sales GROUP BY shop_id;
END;

SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '2 s';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXPLAIN PLAN_ADVICE SELECT shop_id, COUNT(*) AS n FROM sales GROUP BY shop_id;
