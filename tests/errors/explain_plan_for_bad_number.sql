-- A number option that is no number fails EXPLAIN PLAN FOR (the source is created while planning).
CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '10k');
EXPLAIN PLAN FOR SELECT id, amount * 2 FROM orders;
