-- EXPLAIN of the main operator kinds: regular joins with STATE_TTL hints (and the cascade
-- position no key reaches, in weir's plan advice), deduplication, Top-N, window aggregation,
-- interval join, an upsert source (ChangelogNormalize) and an upsert sink.
CREATE TABLE purchases (
  purchase_id BIGINT, buyer_id BIGINT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE settlements (
  settle_id BIGINT, purchase_id BIGINT, settle_method STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/payments.csv', 'format' = 'csv');
CREATE TABLE buyers (buyer_id BIGINT, name STRING, region STRING, active BOOLEAN)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/users.csv', 'format' = 'csv');
CREATE TABLE fx (currency STRING, rate DECIMAL(10, 2), updated TIMESTAMP(3), PRIMARY KEY (currency) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/rates.csv', 'format' = 'changelog-csv',
        'changelog-csv.changelog-mode' = 'I,UA,D');
CREATE TABLE region_counts (region STRING, n BIGINT, PRIMARY KEY (region) NOT ENFORCED) WITH ('connector' = 'blackhole');
SET 'table.exec.state.ttl' = '12 h';

EXPLAIN PLAN_ADVICE SELECT /*+ STATE_TTL('pu' = '2d', 'se' = '90 min', 'bu' = '3d') */ bu.region, pu.price
FROM purchases pu JOIN settlements se ON pu.purchase_id = se.purchase_id JOIN buyers bu ON pu.buyer_id = bu.buyer_id;

EXPLAIN SELECT /*+ STATE_TTL('purchases' = '1d') */ buyer_id, MAX(price) AS top FROM purchases GROUP BY buyer_id;

EXPLAIN SELECT purchase_id, buyer_id FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY buyer_id ORDER BY ts ASC) AS rn FROM purchases) WHERE rn = 1;

EXPLAIN SELECT buyer_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY buyer_id ORDER BY price DESC) AS rn FROM purchases) WHERE rn <= 2;

EXPLAIN SELECT window_start, window_end, buyer_id, COUNT(*) AS n
FROM TABLE(HOP(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE))
GROUP BY window_start, window_end, buyer_id;

EXPLAIN SELECT pu.purchase_id, se.settle_method FROM purchases pu JOIN settlements se
ON pu.purchase_id = se.purchase_id AND se.ts >= pu.ts AND se.ts <= pu.ts + INTERVAL '1' MINUTE;

EXPLAIN CHANGELOG_MODE SELECT currency, rate FROM fx WHERE rate > 1;

EXPLAIN CHANGELOG_MODE INSERT INTO region_counts SELECT b.region, COUNT(*) FROM purchases p JOIN buyers b ON p.buyer_id = b.buyer_id GROUP BY b.region;
