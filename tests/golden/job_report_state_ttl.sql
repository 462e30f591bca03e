-- -v prints each job's report: rows per operator, state entries and bytes per state name, and
-- ttlExpiredRecords: rows that arrived for a key whose state had expired. The simulated clock
-- advances processing time by 1 s per row, so with a 500 ms TTL the key's state expires between
-- rows: the aggregate starts again with +I, as Flink's does, and the report counts those rows.
SET 'table.exec.state.ttl' = '500 ms';
SET 'weir.exec.chunk-rows' = '1';
SET 'weir.exec.simulated-clock.step' = '1 s';
CREATE TABLE t (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/dir', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT v, COUNT(*) AS n FROM (SELECT 'same' AS v FROM t) GROUP BY v;
