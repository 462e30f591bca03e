-- A column without a type.
CREATE TABLE t (id, name STRING) WITH ('connector' = 'datagen');
