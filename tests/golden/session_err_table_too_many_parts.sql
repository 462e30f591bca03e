-- An identifier has at most three parts.
CREATE TABLE a.b.c.d (x INT) WITH ('connector' = 'datagen');
