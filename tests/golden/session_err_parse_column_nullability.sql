-- Two columns without a comma: after a column's type Flink lists NOT / NULL and the constraints,
-- then the collection suffixes MULTISET and ARRAY its lookahead scans.
CREATE TABLE orders (id INT amount DOUBLE) WITH ('connector' = 'datagen');
