CREATE TABLE sink_t (a INT) WITH ('connector' = 'blackhole');
INSERT INTO sink_t VALUES (1);
