-- COMPILE PLAN then EXECUTE PLAN gives the same results as the SQL it came from: a filtered
-- aggregate into an upsert sink, a hinted regular join, a tumbling window, a Top-N, a statement set.
CREATE TABLE purchases (
  purchase_id BIGINT, buyer_id BIGINT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE settlements (
  settle_id BIGINT, purchase_id BIGINT, settle_method STRING, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '$DATA/payments.csv', 'format' = 'csv');
CREATE TABLE totals (buyer_id BIGINT, total DECIMAL(38, 2), n BIGINT, PRIMARY KEY (buyer_id) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'totals');
CREATE TABLE paid (settle_method STRING, price DECIMAL(10, 2), purchase_id BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'paid');
CREATE TABLE windows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total DECIMAL(38, 2))
  WITH ('connector' = 'print', 'print-identifier' = 'windows');
CREATE TABLE top1 (buyer_id BIGINT, purchase_id BIGINT, price DECIMAL(10, 2))
  WITH ('connector' = 'print', 'print-identifier' = 'top1');
SET 'table.dml-sync' = 'true';
SET 'table.exec.state.ttl' = '1 h';

INSERT INTO totals SELECT buyer_id, SUM(price), COUNT(*) FROM purchases WHERE price > 10 GROUP BY buyer_id;
COMPILE PLAN 'file://$TMP/totals.json' FOR
INSERT INTO totals SELECT buyer_id, SUM(price), COUNT(*) FROM purchases WHERE price > 10 GROUP BY buyer_id;
EXECUTE PLAN 'file://$TMP/totals.json';

INSERT INTO paid SELECT /*+ STATE_TTL('s' = '1d') */ s.settle_method, p.price, p.purchase_id
FROM purchases p JOIN settlements s ON p.purchase_id = s.purchase_id WHERE s.settle_method <> 'cash';
COMPILE PLAN 'file://$TMP/paid.json' FOR
INSERT INTO paid SELECT /*+ STATE_TTL('s' = '1d') */ s.settle_method, p.price, p.purchase_id
FROM purchases p JOIN settlements s ON p.purchase_id = s.purchase_id WHERE s.settle_method <> 'cash';
EXECUTE PLAN 'file://$TMP/paid.json';

INSERT INTO windows SELECT window_start, window_end, COUNT(*), SUM(price)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE)) GROUP BY window_start, window_end;
COMPILE AND EXECUTE PLAN 'file://$TMP/windows.json' FOR
INSERT INTO windows SELECT window_start, window_end, COUNT(*), SUM(price)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE)) GROUP BY window_start, window_end;
EXECUTE PLAN 'file://$TMP/windows.json';

INSERT INTO top1 SELECT buyer_id, purchase_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY buyer_id ORDER BY price DESC) AS rn FROM purchases) WHERE rn = 1;
COMPILE PLAN 'file://$TMP/top1.json' FOR
INSERT INTO top1 SELECT buyer_id, purchase_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY buyer_id ORDER BY price DESC) AS rn FROM purchases) WHERE rn = 1;
EXECUTE PLAN 'file://$TMP/top1.json';

COMPILE PLAN 'file://$TMP/set.json' FOR STATEMENT SET BEGIN
INSERT INTO paid SELECT 'any', price, purchase_id FROM purchases WHERE buyer_id = 101;
INSERT INTO top1 SELECT buyer_id, purchase_id, price FROM purchases WHERE price > 1000;
END;
EXECUTE PLAN 'file://$TMP/set.json';
