-- Two columns with the same name.
CREATE TABLE t (id INT, id STRING) WITH ('connector' = 'datagen');
