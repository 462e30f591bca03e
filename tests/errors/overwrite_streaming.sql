-- INSERT OVERWRITE into a filesystem table in streaming mode: Flink's FileSystemTableSink refuses it.
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE dst (id INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-never-written-ow', 'format' = 'csv');
INSERT OVERWRITE dst SELECT id FROM src;
