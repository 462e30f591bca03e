-- a window aggregate clears its own state at the watermark, with or without a TTL
SET 'table.exec.state.ttl' = '45 min';
COMPILE PLAN 'file://$LAB/window-plan.json' FOR
INSERT INTO bucket_sink
SELECT window_start, window_end, CAST(SUM(fare) AS BIGINT)
FROM TABLE(TUMBLE(TABLE rides, DESCRIPTOR(ts), INTERVAL '15' MINUTE))
GROUP BY window_start, window_end;

SET 'sql-client.execution.result-mode' = 'tableau';
SELECT window_start, window_end, COUNT(*) AS rides, SUM(fare) AS fare
FROM TABLE(TUMBLE(TABLE rides, DESCRIPTOR(ts), INTERVAL '15' MINUTE))
GROUP BY window_start, window_end;
