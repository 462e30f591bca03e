-- a filter and a projection only: no operator keeps state
COMPILE PLAN 'file://$LAB/calc-plan.json' FOR
INSERT INTO score_sink
SELECT CAST(ride_id AS STRING), CAST(fare * 100 AS BIGINT) FROM rides WHERE fare > 40;
