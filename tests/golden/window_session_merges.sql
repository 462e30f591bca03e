-- Session windows whose out-of-order rows bridge sessions that were apart (ann's 00:01 and 00:10
-- sessions merge at 00:05; bob's 02.5 and 09 at 06; cid's 03.2 and 11.1 at 07.4), with NULLs and a
-- late row (cid's 00:12 after the watermark passed 00:20): the merged sessions' counts, sums,
-- averages and extremes, by the window TVF and by the legacy GROUP BY SESSION, and a DOUBLE sum
-- (values exact in binary, so any order gives one result).
CREATE TABLE buys (
  buyer STRING, ts TIMESTAMP(3), qty INT, price DECIMAL(10, 2), fruit STRING, w DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/session_merges.csv', 'format' = 'csv', 'csv.null-literal' = 'null');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT buyer, window_start, window_end, COUNT(*) AS n, COUNT(qty) AS nq, SUM(qty) AS q, SUM(price) AS p,
  AVG(qty) AS aq, MIN(fruit) AS lo, MAX(fruit) AS hi, MAX(price) AS top
FROM TABLE(SESSION(TABLE buys PARTITION BY buyer, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY buyer, window_start, window_end;
SELECT buyer, SESSION_START(ts, INTERVAL '5' SECOND) AS s, SESSION_END(ts, INTERVAL '5' SECOND) AS e,
  COUNT(*) AS n, SUM(price) AS p, MIN(qty) AS lo, SUM(w) AS sw
FROM buys GROUP BY buyer, SESSION(ts, INTERVAL '5' SECOND);
