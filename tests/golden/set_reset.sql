-- SET, the SET listing, RESET of one key and of all keys.
SET 'pipeline.name' = 'my-job';
SET 'table.exec.state.ttl' = '30 min';
SET;
RESET 'pipeline.name';
SET;
RESET;
SET;
