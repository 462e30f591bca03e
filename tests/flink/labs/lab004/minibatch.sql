-- mini-batch: the three settings, and the aggregate splits into local and global phases
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '2 s';
SET 'table.exec.mini-batch.size' = '500';
EXPLAIN PLAN FOR
SELECT song, COUNT(*) AS plays, SUM(seconds) AS total_seconds
FROM plays WHERE seconds > 30 GROUP BY song;
