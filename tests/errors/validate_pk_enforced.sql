-- PRIMARY KEY without NOT ENFORCED.
CREATE TABLE t (id INT, PRIMARY KEY (id)) WITH ('connector' = 'datagen');
