-- A reserved word cannot be a column name without backticks.
CREATE TABLE t (method STRING) WITH ('connector' = 'datagen');
