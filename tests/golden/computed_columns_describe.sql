-- Computed columns, a watermark and a primary key, as DESCRIBE shows them.
CREATE TABLE t (
  id BIGINT NOT NULL,
  price DECIMAL(10, 2),
  qty INT,
  total AS price * qty,
  ts TIMESTAMP(3),
  pt AS PROCTIME(),
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
DESCRIBE t;
SHOW TABLES;
