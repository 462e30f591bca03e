-- A row of VALUES ending with a comma: its items may be DEFAULT besides the operands.
CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'blackhole');
INSERT INTO sink VALUES (1,;
