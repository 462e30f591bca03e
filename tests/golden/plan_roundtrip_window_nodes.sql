-- COMPILE PLAN then EXECUTE PLAN gives the same results as the SQL it came from, for the window
-- Top-N (WindowRank over tumbling, hopping and cumulating windows and over a window aggregate; ranked by
-- ROW_NUMBER: Flink 2.3 refuses RANK() there, see tests/errors/window_topn_rank),
-- window deduplication (WindowDeduplicate keeping the first and the last row) and window joins
-- (WindowJoin: inner, left with a non-equi condition, and at parallelism 2).
CREATE TABLE purchases (
  purchase_id BIGINT, buyer_id BIGINT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE payments (
  payment_id BIGINT, order_id BIGINT, pay_method STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/payments.csv', 'format' = 'csv');
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
CREATE TABLE top_tumble (ws TIMESTAMP(3), we TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2), rn BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'top_tumble');
CREATE TABLE top_hop (ws TIMESTAMP(3), we TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2))
  WITH ('connector' = 'print', 'print-identifier' = 'top_hop');
CREATE TABLE top_cumulate (ws TIMESTAMP(3), we TIMESTAMP(3), buyer_id BIGINT, purchase_id BIGINT, rk BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'top_cumulate');
CREATE TABLE top_users (ws TIMESTAMP(3), we TIMESTAMP(3), username STRING, n BIGINT, rn BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'top_users');
CREATE TABLE first_click (ws TIMESTAMP(3), username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'print', 'print-identifier' = 'first_click');
CREATE TABLE last_click (ws TIMESTAMP(3), username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'print', 'print-identifier' = 'last_click');
CREATE TABLE paid (ws TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2), pay_method STRING)
  WITH ('connector' = 'print', 'print-identifier' = 'paid');
CREATE TABLE paid_left (ws TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2), pay_method STRING)
  WITH ('connector' = 'print', 'print-identifier' = 'paid_left');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';

-- WindowRank over a tumbling window TVF: the two dearest purchases per 10 minutes
INSERT INTO top_tumble SELECT window_start, window_end, purchase_id, price, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rn
  FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) WHERE rn <= 2;
COMPILE PLAN 'file://$TMP/top_tumble.json' FOR
INSERT INTO top_tumble SELECT window_start, window_end, purchase_id, price, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rn
  FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) WHERE rn <= 2;
EXECUTE PLAN 'file://$TMP/top_tumble.json';

-- WindowRank over a hopping window, the rank number not selected
INSERT INTO top_hop SELECT window_start, window_end, purchase_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price ASC) AS rn
  FROM TABLE(HOP(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE))) WHERE rn <= 1;
COMPILE PLAN 'file://$TMP/top_hop.json' FOR
INSERT INTO top_hop SELECT window_start, window_end, purchase_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price ASC) AS rn
  FROM TABLE(HOP(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE))) WHERE rn <= 1;
EXECUTE PLAN 'file://$TMP/top_hop.json';

-- WindowRank over a cumulating window, partitioned by buyer
INSERT INTO top_cumulate SELECT window_start, window_end, buyer_id, purchase_id, rk FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, buyer_id ORDER BY ts DESC) AS rk
  FROM TABLE(CUMULATE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '15' MINUTE))) WHERE rk <= 1;
COMPILE PLAN 'file://$TMP/top_cumulate.json' FOR
INSERT INTO top_cumulate SELECT window_start, window_end, buyer_id, purchase_id, rk FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, buyer_id ORDER BY ts DESC) AS rk
  FROM TABLE(CUMULATE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '5' MINUTE, INTERVAL '15' MINUTE))) WHERE rk <= 1;
EXECUTE PLAN 'file://$TMP/top_cumulate.json';

-- WindowRank over a window aggregate (WindowAttached on its window_start / window_end)
INSERT INTO top_users SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC) AS rn FROM (
    SELECT window_start, window_end, username, COUNT(*) AS n
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND))
    GROUP BY window_start, window_end, username)) WHERE rn <= 2;
COMPILE PLAN 'file://$TMP/top_users.json' FOR
INSERT INTO top_users SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC) AS rn FROM (
    SELECT window_start, window_end, username, COUNT(*) AS n
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND))
    GROUP BY window_start, window_end, username)) WHERE rn <= 2;
EXECUTE PLAN 'file://$TMP/top_users.json';

-- WindowDeduplicate keeping the first row per user and window
INSERT INTO first_click SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, username ORDER BY ts ASC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))) WHERE rn = 1;
COMPILE PLAN 'file://$TMP/first_click.json' FOR
INSERT INTO first_click SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, username ORDER BY ts ASC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))) WHERE rn = 1;
EXECUTE PLAN 'file://$TMP/first_click.json';

-- WindowDeduplicate keeping the last row per window (hopping)
INSERT INTO last_click SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY ts DESC) AS rn
  FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))) WHERE rn = 1;
COMPILE PLAN 'file://$TMP/last_click.json' FOR
INSERT INTO last_click SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY ts DESC) AS rn
  FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))) WHERE rn = 1;
EXECUTE PLAN 'file://$TMP/last_click.json';

-- WindowJoin: inner
INSERT INTO paid SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end;
COMPILE PLAN 'file://$TMP/paid.json' FOR
INSERT INTO paid SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end;
EXECUTE PLAN 'file://$TMP/paid.json';

-- WindowJoin: left, with a non-equi condition
INSERT INTO paid_left SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end
AND p.pay_method <> 'cash';
COMPILE PLAN 'file://$TMP/paid_left.json' FOR
INSERT INTO paid_left SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end
AND p.pay_method <> 'cash';
EXECUTE PLAN 'file://$TMP/paid_left.json';

-- at parallelism 2: the hash exchanges of the plan are read back; the two subtasks' outputs
-- interleave in any order, so they go to files and are compared sorted
CREATE TABLE paid_left_sql (ws TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2), pay_method STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/paid_left_sql', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE paid_left_plan (ws TIMESTAMP(3), purchase_id BIGINT, price DECIMAL(10, 2), pay_method STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/paid_left_plan', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE first_click_sql (ws TIMESTAMP(3), username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$TMP/first_click_sql', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE first_click_plan (ws TIMESTAMP(3), username STRING, url STRING, ts TIMESTAMP(3))
  WITH ('connector' = 'filesystem', 'path' = '$TMP/first_click_plan', 'format' = 'csv', 'csv.null-literal' = '');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '2';
INSERT INTO paid_left_sql SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end
AND p.pay_method <> 'cash';
COMPILE PLAN 'file://$TMP/paid_left2.json' FOR
INSERT INTO paid_left_plan SELECT o.window_start, o.purchase_id, o.price, p.pay_method
FROM (SELECT * FROM TABLE(TUMBLE(TABLE purchases, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(ts), INTERVAL '10' MINUTE))) p
ON o.purchase_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end
AND p.pay_method <> 'cash';
EXECUTE PLAN 'file://$TMP/paid_left2.json';
INSERT INTO first_click_sql SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, username ORDER BY ts ASC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))) WHERE rn = 1;
COMPILE PLAN 'file://$TMP/first_click2.json' FOR
INSERT INTO first_click_plan SELECT window_start, username, url, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, username ORDER BY ts ASC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))) WHERE rn = 1;
EXECUTE PLAN 'file://$TMP/first_click2.json';
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM paid_left_sql ORDER BY purchase_id;
SELECT * FROM paid_left_plan ORDER BY purchase_id;
SELECT * FROM first_click_sql ORDER BY ws, username;
SELECT * FROM first_click_plan ORDER BY ws, username;
