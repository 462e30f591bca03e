-- the same query with every detail EXPLAIN can add
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE
SELECT song, COUNT(*) AS plays, SUM(seconds) AS total_seconds
FROM plays WHERE seconds > 30 GROUP BY song;

EXPLAIN JSON_EXECUTION_PLAN
INSERT INTO song_sink
SELECT song, COUNT(*), SUM(seconds) FROM plays WHERE seconds > 30 GROUP BY song;
