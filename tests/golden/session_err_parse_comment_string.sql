-- COMMENT takes a bare quoted string in Flink's own statements.
CREATE TABLE t (id INT) COMMENT WITH ('connector' = 'datagen');
