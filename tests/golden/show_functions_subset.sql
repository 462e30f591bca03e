-- SHOW TABLES with LIKE, SHOW CATALOGS and SHOW CURRENT DATABASE.
CREATE TABLE orders (
  order_id BIGINT,
  user_id INT,
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '$DATA/orders.csv',
  'format' = 'csv', 'csv.null-literal' = ''
);
CREATE TABLE users (
  user_id INT,
  name STRING,
  region STRING,
  active BOOLEAN
) WITH (
  'connector' = 'filesystem',
  'path' = '$DATA/users.csv',
  'format' = 'csv'
);
SHOW TABLES LIKE 'u%';
SHOW CATALOGS;
SHOW CURRENT DATABASE;
