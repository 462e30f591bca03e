-- Windows over windows: an aggregate grouped by the window_start/window_end of an earlier window
-- aggregate stays a window aggregate (Flink's window-attached strategy: the rows carry their window;
-- two phases, the global one on the $window_end its local aggregate appends),
-- and a join of two windowed inputs on window_start and window_end is a WindowJoin. Both emit once
-- per window when the watermark passes its end, insert-only (Nexmark q5's shape): the busiest user
-- of each 10-second window. A filter on the TVF's output also keeps the aggregate windowed.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
CREATE VIEW per_user AS
SELECT username, COUNT(*) AS n, window_start AS ws, window_end AS we
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY username, window_start, window_end;
CREATE VIEW busiest AS
SELECT MAX(n) AS maxn, ws, we FROM per_user GROUP BY ws, we;
SET 'sql-client.execution.result-mode' = 'tableau';
EXPLAIN SELECT u.username, u.n, u.ws, u.we
FROM per_user u JOIN busiest b ON u.ws = b.ws AND u.we = b.we AND u.n >= b.maxn;
SELECT u.username, u.n, u.ws, u.we
FROM per_user u JOIN busiest b ON u.ws = b.ws AND u.we = b.we AND u.n >= b.maxn;
SELECT ws, we, maxn FROM busiest;
EXPLAIN SELECT window_start, COUNT(*) AS home_views
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
WHERE url = '/home' AND window_start >= TIMESTAMP '2024-03-01 10:00:10'
GROUP BY window_start, window_end;
SELECT window_start, COUNT(*) AS home_views
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
WHERE url = '/home' AND window_start >= TIMESTAMP '2024-03-01 10:00:10'
GROUP BY window_start, window_end;
