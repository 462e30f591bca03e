-- CREATE TABLE in a catalog that does not exist.
CREATE TABLE nope.d1.t (a INT) WITH ('connector' = 'datagen');
