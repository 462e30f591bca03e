-- A scalar subquery that names a column of the enclosing query (correlated) is refused with the
-- reason (Flink decorrelates it into a join on the correlated columns; docs/user-guide.md).
CREATE TABLE s (station_id INT, label STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_stations.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE r (station_id INT, reading INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT label, (SELECT MAX(reading) FROM r WHERE r.station_id = s.station_id) AS top FROM s;
