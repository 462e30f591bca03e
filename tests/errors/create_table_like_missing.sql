-- LIKE names a table that does not exist.
CREATE TABLE t (a INT) WITH ('connector' = 'blackhole') LIKE nowhere;
