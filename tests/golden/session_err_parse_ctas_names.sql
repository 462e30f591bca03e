-- A column list without types is read as the names of CREATE TABLE ... AS SELECT; without the query
-- Flink's parser refuses it.
CREATE TABLE orders (id, amount) WITH ('connector' = 'datagen');
