-- DESCRIBE and SHOW COLUMNS in the current client's shape: nullability TRUE / FALSE, primary key,
-- computed and metadata columns, watermark, and the comment column when a column has a comment.
CREATE TABLE plain (a INT, b STRING NOT NULL) WITH ('connector' = 'datagen');
DESCRIBE plain;
CREATE TABLE rich (
  id BIGINT NOT NULL COMMENT 'identifier',
  name STRING,
  price DECIMAL(10, 2) COMMENT 'unit price',
  qty INT,
  total AS price * qty COMMENT 'computed',
  ts TIMESTAMP(3),
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'a rich table' WITH ('connector' = 'datagen');
DESCRIBE rich;
DESC EXTENDED rich;
SHOW COLUMNS FROM rich;
SHOW COLUMNS FROM rich LIKE '%i%';
SHOW COLUMNS IN rich NOT LIKE '%i%';
SHOW COLUMNS FROM rich LIKE 'nothing';
CREATE TABLE two_keys (k1 INT, k2 STRING, v DOUBLE, PRIMARY KEY (k1, k2) NOT ENFORCED)
  WITH ('connector' = 'datagen');
DESCRIBE two_keys;
SHOW COLUMNS FROM two_keys LIKE 'k_';
CREATE VIEW rich_view AS SELECT id, name, total FROM rich;
DESCRIBE rich_view;
SHOW COLUMNS FROM rich_view;
CREATE TABLE procs (id INT, pt AS PROCTIME()) WITH ('connector' = 'datagen');
DESCRIBE procs;
SHOW CREATE TABLE default_catalog.default_database.rich;
