SET 'pipeline.name' = 'lab-rest-running';
SET 'execution.checkpointing.interval' = '1 s';
INSERT INTO level_sink SELECT sensor, COUNT(*) FROM readings WHERE level > 0 GROUP BY sensor;
