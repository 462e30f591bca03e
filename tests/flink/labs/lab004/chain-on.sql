-- the INSERT as a job, operator chaining on (the default)
SET 'pipeline.name' = 'lab-plays-chained';
INSERT INTO song_sink
SELECT song, COUNT(*), SUM(seconds) FROM plays WHERE seconds > 30 GROUP BY song;
