-- the three sections of a per-song aggregate over the plays that count (more than 30 s)
EXPLAIN PLAN FOR
SELECT song, COUNT(*) AS plays, SUM(seconds) AS total_seconds
FROM plays WHERE seconds > 30 GROUP BY song;
