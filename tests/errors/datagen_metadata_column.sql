-- a metadata column on a source that reads no metadata (datagen): Flink's message names the source
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE g (id INT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL)
  WITH ('connector' = 'datagen', 'number-of-rows' = '3');
SELECT * FROM g;
