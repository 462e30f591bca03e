-- table.exec.state.ttl: with a TTL, unchanged aggregate results are still emitted (Flink refreshes
-- downstream state); the job report (-v) would show the state sizes.
SET 'table.exec.state.ttl' = '1 h';
CREATE TABLE t (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/dir', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT MAX(v) AS mv, COUNT(*) AS n FROM t;
