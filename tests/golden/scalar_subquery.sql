-- Uncorrelated scalar subqueries in WHERE and select items: Flink joins the subquery's one row to
-- the query (a LEFT JOIN on TRUE; a filter on it makes the join INNER); weir plans the same. The
-- AST differs: Flink prints the subquery inside the expression ($SCALAR_QUERY), weir the join.
CREATE TABLE stations (station_id INT, label STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/using_stations.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE readings (station_id INT, reading INT)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/using_readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'sql-client.execution.result-mode' = 'tableau';
EXPLAIN SELECT station_id, (SELECT MAX(reading) FROM readings) AS top FROM stations;
EXPLAIN SELECT label FROM stations WHERE station_id * 10 > (SELECT AVG(reading) FROM readings);
-- correlated through equalities: the subquery grouped by its side of them, LEFT JOINed on them
EXPLAIN SELECT label, (SELECT MAX(reading) FROM readings AS r WHERE r.station_id = s.station_id) AS top FROM stations AS s;
EXPLAIN SELECT label FROM stations AS s
WHERE station_id * 10 < (SELECT SUM(reading) FROM readings AS r WHERE r.station_id = s.station_id AND reading > 10);
-- a correlated COUNT is 0 where no row matches (Calcite's CASE over the padded NULL)
EXPLAIN SELECT label, (SELECT COUNT(*) FROM readings AS r WHERE r.station_id = s.station_id) AS n FROM stations AS s;
SET 'execution.runtime-mode' = 'batch';
SELECT label, (SELECT COUNT(reading) FROM readings AS r WHERE r.station_id = s.station_id) AS n FROM stations AS s ORDER BY label;
SELECT label, (SELECT MAX(reading) FROM readings AS r WHERE r.station_id = s.station_id) AS top FROM stations AS s ORDER BY label;
SELECT label FROM stations AS s
WHERE station_id * 10 < (SELECT SUM(reading) FROM readings AS r WHERE r.station_id = s.station_id AND reading > 10) ORDER BY label;
SELECT station_id, (SELECT MAX(reading) FROM readings) AS top FROM stations ORDER BY station_id;
SELECT label FROM stations WHERE station_id * 10 > (SELECT AVG(reading) FROM readings WHERE reading < 50) ORDER BY label;
SELECT station_id, label, station_id + (SELECT COUNT(*) FROM readings WHERE station_id IS NOT NULL) AS shifted
FROM stations WHERE label <> 'east' ORDER BY station_id;
SELECT (SELECT SUM(reading) FROM readings) - reading AS rest FROM readings ORDER BY rest;
