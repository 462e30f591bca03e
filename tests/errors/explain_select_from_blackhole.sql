-- A sink-only connector read by a query fails EXPLAIN.
CREATE TABLE nowhere (a INT, b STRING) WITH ('connector' = 'blackhole');
EXPLAIN SELECT b FROM nowhere;
