-- the same INSERT with operator chaining switched off: one vertex per operator
SET 'pipeline.name' = 'lab-plays-unchained';
SET 'pipeline.operator-chaining.enabled' = 'false';
INSERT INTO song_sink
SELECT song, COUNT(*), SUM(seconds) FROM plays WHERE seconds > 30 GROUP BY song;
