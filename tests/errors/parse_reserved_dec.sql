-- DEC is a reserved word (a synonym of DECIMAL).
CREATE TABLE t (id INT, dec DECIMAL(10, 2)) WITH ('connector' = 'datagen');
