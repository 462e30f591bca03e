-- Both the base table and the new one declare a primary key while constraints are included.
CREATE TABLE base_t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE t (PRIMARY KEY (b) NOT ENFORCED) LIKE base_t;
