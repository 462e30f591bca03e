-- Seed lab 004 (reading EXPLAIN), our data: plays of songs by listeners (seconds played).
CREATE TABLE plays (
  song STRING,
  listener STRING,
  seconds INT,
  played_at BIGINT
) WITH ('connector' = 'filesystem', 'path' = '$DATA/plays.csv', 'format' = 'csv');

CREATE TABLE song_sink (song STRING, plays BIGINT, total_seconds INT) WITH ('connector' = 'blackhole');
CREATE TABLE reach_sink (song STRING, listeners BIGINT) WITH ('connector' = 'blackhole');
