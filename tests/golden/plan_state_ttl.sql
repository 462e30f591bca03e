-- Where state lives and how long it is kept, read from COMPILE PLAN (the steps of the state/TTL
-- lab with our own tables, aliases and durations). The plan files are read back as one-column
-- tables of lines, which is what `jq '.nodes[] | {id, type, state}'` looks at.
CREATE TABLE purchases (
  purchase_id BIGINT, buyer_id BIGINT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE settlements (
  settle_id BIGINT, purchase_id BIGINT, settle_method STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/payments.csv', 'format' = 'csv');
CREATE TABLE buyers (buyer_id BIGINT, country STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE kv_out (k STRING, v BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE window_out (window_start TIMESTAMP(3), window_end TIMESTAMP(3), v BIGINT) WITH ('connector' = 'blackhole');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '60';

-- 1. a filter-only INSERT: no node keeps state
COMPILE PLAN 'file://$TMP/filter-plan.json' FOR
INSERT INTO kv_out SELECT CAST(purchase_id AS STRING), CAST(price * 2 AS BIGINT) FROM purchases WHERE price > 1000;
CREATE TABLE filter_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/filter-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM filter_plan WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- 2. an unbounded GROUP BY without a TTL: the state never expires (0 ms)
COMPILE PLAN 'file://$TMP/agg-plan.json' FOR
INSERT INTO kv_out SELECT CAST(buyer_id AS STRING), CAST(SUM(price) AS BIGINT) FROM purchases GROUP BY buyer_id;
CREATE TABLE agg_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/agg-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM agg_plan WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- 3. the job-wide TTL applies from the next statement on
SET 'table.exec.state.ttl' = '45 min';
COMPILE PLAN 'file://$TMP/agg-ttl-plan.json' FOR
INSERT INTO kv_out SELECT CAST(buyer_id AS STRING), CAST(SUM(price) AS BIGINT) FROM purchases GROUP BY buyer_id;
CREATE TABLE agg_ttl_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/agg-ttl-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM agg_ttl_plan WHERE line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- 4. different TTLs for the two sides of a regular join: the hint keys are the aliases
COMPILE PLAN 'file://$TMP/join-plan.json' FOR
INSERT INTO kv_out SELECT /*+ STATE_TTL('pu' = '2d', 'se' = '90 min') */ se.settle_method, CAST(pu.price AS BIGINT)
FROM purchases pu JOIN settlements se ON pu.purchase_id = se.purchase_id;
CREATE TABLE join_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/join-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM join_plan WHERE line LIKE '%"type" : "stream-exec-join%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- 5. a cascade of two joins: three keys, four positions; the second join's left input is the
--    first join, which has no name, so it keeps the job default (45 min)
COMPILE PLAN 'file://$TMP/cascade-plan.json' FOR
INSERT INTO kv_out SELECT /*+ STATE_TTL('pu' = '2d', 'se' = '90 min', 'bu' = '3d') */ bu.country, CAST(pu.price AS BIGINT)
FROM purchases pu JOIN settlements se ON pu.purchase_id = se.purchase_id JOIN buyers bu ON pu.buyer_id = bu.buyer_id;
CREATE TABLE cascade_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/cascade-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM cascade_plan WHERE line LIKE '%"id" : %' OR line LIKE '%"type" : "stream-exec-join%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- 6. a window aggregate keeps no TTL'd state: it empties each window when the watermark passes
COMPILE PLAN 'file://$TMP/window-plan.json' FOR
INSERT INTO window_out SELECT window_start, window_end, CAST(SUM(price) AS BIGINT)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE)) GROUP BY window_start, window_end;
CREATE TABLE window_plan (line STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/window-plan.json',
  'format' = 'csv', 'csv.null-literal' = '', 'csv.disable-quote-character' = 'true', 'csv.field-delimiter' = '|');
SELECT TRIM(line) AS line FROM window_plan WHERE line LIKE '%"type" : "stream-exec%' OR line LIKE '%"ttl"%' OR line LIKE '%State"%';

-- a plan file is not overwritten
COMPILE PLAN 'file://$TMP/window-plan.json' IF NOT EXISTS FOR
INSERT INTO window_out SELECT window_start, window_end, CAST(SUM(price) AS BIGINT)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE)) GROUP BY window_start, window_end;
COMPILE PLAN 'file://$TMP/window-plan.json' FOR
INSERT INTO window_out SELECT window_start, window_end, CAST(SUM(price) AS BIGINT)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE)) GROUP BY window_start, window_end;
