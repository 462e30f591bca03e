-- SHOW TABLES has no ILIKE (a parse error in Flink 2.3).
CREATE TABLE t (a INT) WITH ('connector' = 'datagen');
SHOW TABLES ILIKE 'T%';
