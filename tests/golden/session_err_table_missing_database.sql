-- CREATE TABLE in a database that does not exist.
CREATE TABLE nope.t (a INT) WITH ('connector' = 'datagen');
