-- DROP DATABASE (RESTRICT by default) of a database with a table.
CREATE DATABASE d1;
CREATE TABLE d1.t (a INT) WITH ('connector' = 'datagen');
DROP DATABASE d1;
