-- A trailing comma in a WITH clause.
CREATE TABLE t (id INT) WITH ('connector' = 'datagen',);
