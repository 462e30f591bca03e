CREATE TABLE o (a INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-never-written', 'format' = 'csv', 'csv.field-delimiter' = 'ab');
INSERT INTO o VALUES (1);
