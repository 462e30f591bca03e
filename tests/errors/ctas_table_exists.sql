-- CREATE TABLE ... AS SELECT under a name that exists: refused, nothing is run.
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE dst (id INT) WITH ('connector' = 'blackhole');
CREATE TABLE dst WITH ('connector' = 'blackhole') AS SELECT id FROM src;
