-- INSERT with a type the sink column cannot take.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE out_t (a BOOLEAN) WITH ('connector' = 'blackhole');
INSERT INTO out_t SELECT ts FROM orders;
