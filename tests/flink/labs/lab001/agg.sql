-- an unbounded GROUP BY without a TTL: its state is kept forever (ttl 0 ms)
COMPILE PLAN 'file://$LAB/agg-plan.json' FOR
INSERT INTO score_sink
SELECT rider_id, CAST(SUM(fare) AS BIGINT) FROM rides GROUP BY rider_id;
