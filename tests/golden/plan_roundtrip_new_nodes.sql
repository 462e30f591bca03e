-- COMPILE PLAN then EXECUTE PLAN gives the same results as the SQL it came from, for the exec
-- nodes of UNNEST (Correlate, WITH ORDINALITY and LEFT), ROLLUP and the distinct split (Expand),
-- INTERSECT ALL ($REPLICATE_ROWS$1 Correlate), MATCH_RECOGNIZE (Match), ORDER BY with LIMIT
-- (SortLimit, Limit), ORDER BY a time attribute (TemporalSort), a two-phase window aggregate
-- (LocalWindowAggregate / GlobalWindowAggregate) and OVER windows with LAG / ROW_NUMBER
-- (OverAggregate).
CREATE TABLE items (id INT, items ARRAY<STRING>) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/unnest_items.csv', 'format' = 'csv');
CREATE TABLE purchases (
  purchase_id BIGINT, buyer_id BIGINT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE l (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_left.csv', 'format' = 'changelog-csv');
CREATE TABLE r (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/set_right.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE Ticker (
  symbol STRING, rowtime TIMESTAMP(3), price INT, tax INT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/ticker.csv', 'format' = 'csv');
CREATE TABLE mr (
  k STRING, id INT, v STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '$DATA/mr_events.csv', 'format' = 'csv');
CREATE TABLE ev (
  k INT, b BIGINT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/lag_events.csv', 'format' = 'csv');
CREATE TABLE unnested (id INT, item STRING, pos INT) WITH ('connector' = 'print', 'print-identifier' = 'unnested');
CREATE TABLE left_unnested (id INT, item STRING) WITH ('connector' = 'print', 'print-identifier' = 'left_unnested');
CREATE TABLE rolled (buyer_id BIGINT, n BIGINT, total DECIMAL(38, 2)) WITH ('connector' = 'print', 'print-identifier' = 'rolled');
CREATE TABLE distinct_buyers (buyer_id BIGINT, n BIGINT, m DECIMAL(10, 2)) WITH ('connector' = 'print', 'print-identifier' = 'distinct');
CREATE TABLE common (k INT, v STRING) WITH ('connector' = 'print', 'print-identifier' = 'common');
CREATE TABLE matched (symbol STRING, start_tstamp TIMESTAMP(3), bottom_tstamp TIMESTAMP(3), end_tstamp TIMESTAMP(3), n BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'matched');
CREATE TABLE runs (k STRING, first_id INT, last_id INT, n BIGINT, avg_id INT, mt TIMESTAMP(3))
  WITH ('connector' = 'print', 'print-identifier' = 'runs');
CREATE TABLE top3 (purchase_id BIGINT, price DECIMAL(10, 2)) WITH ('connector' = 'print', 'print-identifier' = 'top3');
CREATE TABLE by_time (purchase_id BIGINT, ts TIMESTAMP(3)) WITH ('connector' = 'print', 'print-identifier' = 'by_time');
CREATE TABLE windows (buyer_id BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total DECIMAL(38, 2))
  WITH ('connector' = 'print', 'print-identifier' = 'windows');
CREATE TABLE lagged (k INT, b BIGINT, l1 BIGINT, l2d BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'lagged');
CREATE TABLE ranked (k INT, b BIGINT, rn BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'ranked');
CREATE TABLE bounded (k INT, b BIGINT, s BIGINT, c BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'bounded');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';

-- Correlate: $UNNEST_ROWS_WITH_ORDINALITY$1 with a condition
INSERT INTO unnested SELECT id, item, pos FROM items CROSS JOIN UNNEST(items) WITH ORDINALITY AS t(item, pos) WHERE item <> 'hat';
COMPILE PLAN 'file://$TMP/unnested.json' FOR
INSERT INTO unnested SELECT id, item, pos FROM items CROSS JOIN UNNEST(items) WITH ORDINALITY AS t(item, pos) WHERE item <> 'hat';
EXECUTE PLAN 'file://$TMP/unnested.json';

-- Correlate: LEFT JOIN UNNEST ... ON TRUE
INSERT INTO left_unnested SELECT o.id, t.item FROM items o LEFT JOIN UNNEST(o.items) AS t(item) ON TRUE;
COMPILE AND EXECUTE PLAN 'file://$TMP/left_unnested.json' FOR
INSERT INTO left_unnested SELECT o.id, t.item FROM items o LEFT JOIN UNNEST(o.items) AS t(item) ON TRUE;
EXECUTE PLAN 'file://$TMP/left_unnested.json';

-- Expand: ROLLUP
INSERT INTO rolled SELECT buyer_id, COUNT(*), SUM(price) FROM purchases GROUP BY ROLLUP (buyer_id);
COMPILE PLAN 'file://$TMP/rolled.json' FOR
INSERT INTO rolled SELECT buyer_id, COUNT(*), SUM(price) FROM purchases GROUP BY ROLLUP (buyer_id);
EXECUTE PLAN 'file://$TMP/rolled.json';

-- Expand: the distinct split of COUNT(DISTINCT) next to MAX
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
INSERT INTO distinct_buyers SELECT buyer_id, COUNT(DISTINCT purchase_id), MAX(price) FROM purchases GROUP BY buyer_id;
COMPILE PLAN 'file://$TMP/distinct.json' FOR
INSERT INTO distinct_buyers SELECT buyer_id, COUNT(DISTINCT purchase_id), MAX(price) FROM purchases GROUP BY buyer_id;
EXECUTE PLAN 'file://$TMP/distinct.json';
RESET 'table.optimizer.distinct-agg.split.enabled';

-- Correlate: $REPLICATE_ROWS$1 of INTERSECT ALL over an updating input
INSERT INTO common SELECT * FROM l INTERSECT ALL SELECT * FROM r;
COMPILE PLAN 'file://$TMP/common.json' FOR
INSERT INTO common SELECT * FROM l INTERSECT ALL SELECT * FROM r;
EXECUTE PLAN 'file://$TMP/common.json';

-- Match
INSERT INTO matched SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
           LAST(PRICE_UP.rowtime) AS end_tstamp, COUNT(PRICE_DOWN.price) AS n
  ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP
  PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
  DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                       PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
         PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)) MR;
COMPILE PLAN 'file://$TMP/matched.json' FOR
INSERT INTO matched SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
           LAST(PRICE_UP.rowtime) AS end_tstamp, COUNT(PRICE_DOWN.price) AS n
  ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP
  PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
  DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                       PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
         PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)) MR;
EXECUTE PLAN 'file://$TMP/matched.json';

-- Match: SUBSET, WITHIN, a reluctant quantifier, SKIP TO FIRST, aggregates, MATCH_ROWTIME()
INSERT INTO runs SELECT * FROM mr MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, LAST(AB.id) AS last_id, COUNT(*) AS n, AVG(A.id) AS avg_id,
           MATCH_ROWTIME() AS mt
  AFTER MATCH SKIP TO FIRST B
  PATTERN (A+? B) WITHIN INTERVAL '5' SECOND
  SUBSET AB = (A, B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b' AND B.id > FIRST(A.id)) MR;
COMPILE PLAN 'file://$TMP/runs.json' FOR
INSERT INTO runs SELECT * FROM mr MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, LAST(AB.id) AS last_id, COUNT(*) AS n, AVG(A.id) AS avg_id,
           MATCH_ROWTIME() AS mt
  AFTER MATCH SKIP TO FIRST B
  PATTERN (A+? B) WITHIN INTERVAL '5' SECOND
  SUBSET AB = (A, B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b' AND B.id > FIRST(A.id)) MR;
EXECUTE PLAN 'file://$TMP/runs.json';

-- SortLimit, Limit and TemporalSort
INSERT INTO top3 SELECT purchase_id, price FROM purchases ORDER BY price DESC LIMIT 3;
COMPILE PLAN 'file://$TMP/top3.json' FOR INSERT INTO top3 SELECT purchase_id, price FROM purchases ORDER BY price DESC LIMIT 3;
EXECUTE PLAN 'file://$TMP/top3.json';
COMPILE PLAN 'file://$TMP/limit.json' FOR INSERT INTO top3 SELECT purchase_id, price FROM purchases LIMIT 2;
EXECUTE PLAN 'file://$TMP/limit.json';
INSERT INTO by_time SELECT purchase_id, ts FROM purchases ORDER BY ts;
COMPILE PLAN 'file://$TMP/by_time.json' FOR INSERT INTO by_time SELECT purchase_id, ts FROM purchases ORDER BY ts;
EXECUTE PLAN 'file://$TMP/by_time.json';

-- LocalWindowAggregate / GlobalWindowAggregate
SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';
INSERT INTO windows SELECT buyer_id, window_start, window_end, COUNT(*), SUM(price)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE)) GROUP BY buyer_id, window_start, window_end;
COMPILE PLAN 'file://$TMP/windows.json' FOR
INSERT INTO windows SELECT buyer_id, window_start, window_end, COUNT(*), SUM(price)
FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE)) GROUP BY buyer_id, window_start, window_end;
EXECUTE PLAN 'file://$TMP/windows.json';
RESET 'table.optimizer.agg-phase-strategy';

-- OverAggregate: LAG (offset, default) and ROW_NUMBER over a rowtime; a bounded ROWS frame
INSERT INTO lagged SELECT k, b, LAG(b) OVER w, LAG(b, 2, CAST(-1 AS BIGINT)) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts);
COMPILE PLAN 'file://$TMP/lagged.json' FOR
INSERT INTO lagged SELECT k, b, LAG(b) OVER w, LAG(b, 2, CAST(-1 AS BIGINT)) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts);
EXECUTE PLAN 'file://$TMP/lagged.json';
INSERT INTO ranked SELECT k, b, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) FROM ev;
COMPILE PLAN 'file://$TMP/ranked.json' FOR INSERT INTO ranked SELECT k, b, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) FROM ev;
EXECUTE PLAN 'file://$TMP/ranked.json';
INSERT INTO bounded SELECT k, b, SUM(b) OVER w, COUNT(*) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW);
COMPILE PLAN 'file://$TMP/bounded.json' FOR
INSERT INTO bounded SELECT k, b, SUM(b) OVER w, COUNT(*) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW);
EXECUTE PLAN 'file://$TMP/bounded.json';
INSERT INTO bounded SELECT k, b, SUM(b) OVER w, COUNT(*) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW);
COMPILE PLAN 'file://$TMP/range.json' FOR
INSERT INTO bounded SELECT k, b, SUM(b) OVER w, COUNT(*) OVER w
FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW);
EXECUTE PLAN 'file://$TMP/range.json';
