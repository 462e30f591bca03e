-- COUNT(DISTINCT) split into a PARTIAL and a FINAL aggregate over hash buckets
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
EXPLAIN PLAN FOR
INSERT INTO reach_sink
SELECT song, COUNT(DISTINCT listener) FROM plays GROUP BY song;
