-- A legacy filesystem table without 'connector.path': Flink's message for the missing property.
CREATE TABLE t (key BIGINT, `value` VARCHAR) WITH ('connector.type' = 'filesystem', 'format.type' = 'csv');
SELECT * FROM t;
