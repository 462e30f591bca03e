-- An append-only sink cannot take updates.
CREATE TABLE orders (order_id BIGINT, user_id INT, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE out_t (user_id INT, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'csv', 'csv.null-literal' = '');
INSERT INTO out_t SELECT user_id, COUNT(*) FROM orders GROUP BY user_id;
