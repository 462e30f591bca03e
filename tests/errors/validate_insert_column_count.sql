-- INSERT with a different number of columns.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE out_t (a BIGINT, b INT, c STRING) WITH ('connector' = 'blackhole');
INSERT INTO out_t SELECT order_id, user_id FROM orders;
