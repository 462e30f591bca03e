-- A source-only connector written by an INSERT fails EXPLAIN.
CREATE TABLE gen (a INT) WITH ('connector' = 'datagen');
CREATE TABLE gen2 (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
EXPLAIN INSERT INTO gen SELECT a FROM gen2;
