-- The running job whose REST responses are compared (an unbounded generator, checkpointed).
CREATE TABLE readings (
  sensor INT,
  level DOUBLE
) WITH ('connector' = 'datagen', 'rows-per-second' = '50',
        'fields.sensor.min' = '1', 'fields.sensor.max' = '6');

CREATE TABLE level_sink (sensor INT, readings BIGINT) WITH ('connector' = 'blackhole');
