-- three inputs, two joins: which of the four sides does each hint reach?
SET 'table.exec.state.ttl' = '45 min';
COMPILE PLAN 'file://$LAB/cascade-plan.json' FOR
INSERT INTO score_sink
SELECT /*+ STATE_TTL('rd' = '12h', 'tp' = '90 min', 'rr' = '3d') */ rr.home_city, tp.tip_id
FROM rides rd
JOIN tips tp ON rd.ride_id = tp.ride_id
JOIN riders rr ON rd.rider_id = rr.rider_id;
