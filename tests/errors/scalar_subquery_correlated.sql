-- A correlated scalar subquery that computes with a count is refused with the reason: over no
-- matching rows COUNT is 0 and the LEFT JOIN weir decorrelates it into pads NULL; Calcite moves the
-- computation above the join with a CASE, weir does that for a bare COUNT only (docs/user-guide.md).
CREATE TABLE s (station_id INT, label STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_stations.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE r (station_id INT, reading INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/using_readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SELECT label, (SELECT COUNT(*) + 1 FROM r WHERE r.station_id = s.station_id) AS n FROM s;
