-- OVER windows in a SELECT with GROUP BY: as in Calcite they are evaluated over the aggregate's
-- output (aggregates inside OVER(...) name the aggregate's columns), giving the plan of the
-- equivalent two-level query: a Sort + OverAggregate in batch mode, a Rank (Top-N over a group
-- aggregate) or a WindowRank (Top-N over a window aggregate) in streaming.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT username, COUNT(*) c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, username) FROM clicks GROUP BY username;
EXPLAIN SELECT username, COUNT(*) c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, username) FROM clicks GROUP BY username;
SELECT url, COUNT(*) AS n, SUM(COUNT(*)) OVER () AS total,
  RANK() OVER (ORDER BY COUNT(*) DESC) AS r
FROM clicks GROUP BY url HAVING COUNT(*) > 1;
SET 'execution.runtime-mode' = 'streaming';
SELECT * FROM (
  SELECT window_start, window_end, username, COUNT(url) AS s,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY COUNT(url) DESC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end, username)
WHERE rn <= 1;
EXPLAIN SELECT * FROM (
  SELECT window_start, window_end, username, COUNT(url) AS s,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY COUNT(url) DESC) AS rn
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end, username)
WHERE rn <= 1;
EXPLAIN SELECT * FROM (
  SELECT username, COUNT(*) AS c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC) AS rn
  FROM clicks GROUP BY username)
WHERE rn <= 2;
