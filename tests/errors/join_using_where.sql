-- A USING column named unqualified outside the select list and GROUP BY (here in WHERE) is
-- ambiguous, as in Flink (Calcite expands it to the COALESCE of its copies only in select items
-- and grouping keys): qualify it, e.g. WHERE s.station_id > 1. Measured on Flink 2.3.
CREATE TABLE s (station_id INT, label STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_stations.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE r (station_id INT, reading INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT label FROM s JOIN r USING (station_id) WHERE station_id > 1;
