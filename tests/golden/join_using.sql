-- JOIN ... USING and NATURAL JOIN as Calcite binds them: * lists each common column once, as
-- COALESCE(left, right) whatever the join type, then the other columns of each side; a select item
-- or GROUP BY key naming a USING column unqualified is that COALESCE too (elsewhere, e.g. in WHERE,
-- the name is ambiguous: tests/errors/join_using_where.sql). Measured on Flink 2.3.
CREATE TABLE stations (station_id INT, label STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/using_stations.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE readings (station_id INT, reading INT)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/using_readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE regions (zone STRING, station_id INT)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/using_regions.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
EXPLAIN SELECT * FROM stations FULL JOIN readings USING (station_id);
EXPLAIN SELECT station_id, reading FROM stations RIGHT JOIN readings USING (station_id);
EXPLAIN SELECT station_id, label FROM stations LEFT JOIN readings USING (station_id);
EXPLAIN SELECT * FROM stations JOIN readings USING (station_id);
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM stations RIGHT JOIN readings USING (station_id) ORDER BY reading;
SELECT * FROM stations FULL JOIN readings USING (station_id) ORDER BY station_id, label, reading;
SELECT * FROM stations NATURAL LEFT JOIN readings ORDER BY station_id, reading;
SELECT station_id, label, reading FROM stations JOIN readings USING (station_id) ORDER BY reading;
SELECT station_id + 0 AS sid, COUNT(reading) AS n FROM stations FULL JOIN readings USING (station_id)
GROUP BY station_id ORDER BY sid;
SELECT readings.*, stations.station_id AS left_id FROM stations FULL JOIN readings USING (station_id)
ORDER BY station_id, reading;
SELECT * FROM regions JOIN readings USING (station_id) ORDER BY reading;
SELECT * FROM stations FULL JOIN readings USING (station_id) FULL JOIN regions USING (station_id)
ORDER BY station_id, label, reading, zone;
SELECT * FROM stations JOIN readings USING (station_id) JOIN regions AS r2 USING (station_id) ORDER BY reading;
