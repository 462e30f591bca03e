-- a persisted metadata column in the table of a sink that writes no metadata (filesystem; Flink
-- 2.3's message, measured; VIRTUAL columns are fine)
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE fs (id BIGINT, name STRING, fp STRING METADATA FROM 'file.path') WITH ('connector' = 'filesystem', 'path' = '$TMP/fs', 'format' = 'csv');
EXPLAIN INSERT INTO fs SELECT id, name, 'x' FROM src;
