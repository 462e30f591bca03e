-- DECIMAL precision out of range.
CREATE TABLE t (d DECIMAL(40, 2)) WITH ('connector' = 'datagen');
