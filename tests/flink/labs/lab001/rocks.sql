-- the same per-rider aggregate on the RocksDB state backend, found by its name in the REST API
SET 'state.backend.type' = 'rocksdb';
SET 'pipeline.name' = 'lab-rides-rocks';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT rider_id, COUNT(*) AS rides, SUM(fare) AS total FROM rides GROUP BY rider_id;
