-- Seed lab 001 (state and TTL), our data: bike rides, the tips paid for them, and the riders.
-- Headerless CSV, times in epoch seconds, ts ascending; watermarks on rides and tips.
CREATE TABLE rides (
  ride_id BIGINT,
  rider_id STRING,
  fare DECIMAL(6, 2),
  ts_sec BIGINT,
  ts AS TO_TIMESTAMP_LTZ(ts_sec, 0),
  WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/rides.csv', 'format' = 'csv');

CREATE TABLE tips (
  tip_id BIGINT,
  ride_id BIGINT,
  tip_channel STRING,
  ts_sec BIGINT,
  ts AS TO_TIMESTAMP_LTZ(ts_sec, 0),
  WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/tips.csv', 'format' = 'csv');

CREATE TABLE riders (
  rider_id STRING,
  home_city STRING
) WITH ('connector' = 'filesystem', 'path' = '$DATA/riders.csv', 'format' = 'csv');

CREATE TABLE score_sink (k STRING, v BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE bucket_sink (window_start TIMESTAMP(3), window_end TIMESTAMP(3), v BIGINT)
  WITH ('connector' = 'blackhole');
