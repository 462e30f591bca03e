-- INSERT OVERWRITE into a sink without SupportsOverwrite (print).
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE out_print (id INT) WITH ('connector' = 'print');
SET 'execution.runtime-mode' = 'batch';
INSERT OVERWRITE out_print SELECT id FROM src;
