-- a regular join with a different TTL on each side (the hint names the aliases)
SET 'table.exec.state.ttl' = '45 min';
COMPILE PLAN 'file://$LAB/join-hint-plan.json' FOR
INSERT INTO score_sink
SELECT /*+ STATE_TTL('rd' = '12h', 'tp' = '90 min') */ tp.tip_channel, rd.ride_id
FROM rides rd JOIN tips tp ON rd.ride_id = tp.ride_id;
