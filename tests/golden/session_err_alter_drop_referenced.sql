-- ALTER TABLE DROP of a column a computed column uses.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t DROP a;
