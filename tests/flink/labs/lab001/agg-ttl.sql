-- the same GROUP BY with a job-wide TTL
SET 'table.exec.state.ttl' = '45 min';
COMPILE PLAN 'file://$LAB/agg-ttl-plan.json' FOR
INSERT INTO score_sink
SELECT rider_id, CAST(SUM(fare) AS BIGINT) FROM rides GROUP BY rider_id;
