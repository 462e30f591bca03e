-- A filesystem sink without its required path fails EXPLAIN of the INSERT.
CREATE TABLE src (k STRING, n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE archive (k STRING, n BIGINT) WITH ('connector' = 'filesystem', 'format' = 'json');
EXPLAIN INSERT INTO archive SELECT k, n FROM src;
