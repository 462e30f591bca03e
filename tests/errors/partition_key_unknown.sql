-- PARTITIONED BY must name columns of the table.
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (f3) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'csv');
