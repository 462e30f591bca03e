CREATE TABLE orders (id INT, ts TIMESTAMP(3), WATERMARK ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, ts TIMESTAMP(3), WATERMARK FOR ts ts - INTERVAL '5' SECOND) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, ts TIMESTAMP(3), WATERMARK FOR AS ts) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, PRIMARY KEY id NOT ENFORCED) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, PRIMARY KEY (id) NOT) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, PRIMARY (id) NOT ENFORCED) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, CONSTRAINT pk PRIMARY KEY (id,) NOT ENFORCED) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT, dt STRING) PARTITIONED BY dt WITH ('connector' = 'filesystem');
----
CREATE TABLE orders (id INT, dt STRING) PARTITIONED (dt) WITH ('connector' = 'filesystem');
----
CREATE TABLE orders (id INT, dt STRING) PARTITIONED BY (dt,) WITH ('connector' = 'filesystem');
----
CREATE TABLE orders (id INT) WITH ('connector' 'datagen');
----
CREATE TABLE orders (id INT) WITH ('connector' = 'datagen',);
----
CREATE TABLE orders (id INT) WITH ('connector' = );
----
CREATE TABLE orders (id INT) WITH connector = 'datagen';
----
CREATE TABLE orders (id INT, cost AS) WITH ('connector' = 'datagen');
----
CREATE TABLE orders (id INT METADATA FROM) WITH ('connector' = 'kafka');
----
CREATE TABLE orders (id INT, ts TIMESTAMP_LTZ(3) METADATA VIRTUAL FROM 'timestamp') WITH ('connector' = 'kafka');
----
CREATE TABLE orders (id INT) COMMENT WITH ('connector' = 'datagen');
----
CREATE TABLE orders LIKE;
----
SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES);
----
SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts) INTERVAL '10' MINUTES));
----
SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR ts, INTERVAL '10' MINUTES));
----
SELECT * FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL));
----
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start window_end;
----
SELECT * FROM TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE);
----
SELECT * FROM orders MATCH_RECOGNIZE (PARTITION BY id ORDER BY ts MEASURES A.id AS aid PATTERN (A B) DEFINE A AS);
----
SELECT * FROM orders MATCH_RECOGNIZE (PARTITION BY id ORDER BY ts MEASURES A.id AS aid PATTERN A B DEFINE A AS A.id > 1);
----
SELECT * FROM orders MATCH_RECOGNIZE (PARTITION BY id ORDER BY ts MEASURES A.id aid, PATTERN (A B) DEFINE A AS A.id > 1);
----
SELECT * FROM orders MATCH_RECOGNIZE (PARTITION id ORDER BY ts MEASURES A.id AS aid PATTERN (A) DEFINE A AS A.id > 1);
----
SELECT * FROM orders MATCH_RECOGNIZE (ORDER BY ts MEASURES A.id AS aid ONE ROW PATTERN (A) DEFINE A AS A.id > 1);
----
SELECT * FROM orders MATCH_RECOGNIZE (ORDER BY ts MEASURES A.id AS aid AFTER MATCH SKIP PATTERN (A) DEFINE A AS A.id > 1);
----
SELECT /*+ OPTIONS('scan.startup.mode'='earliest-offset' */ * FROM orders;
----
SELECT * FROM orders /*+ OPTIONS('a'='b') ;
----
SELECT /*+ BROADCAST(orders, */ * FROM orders;
----
SELECT * FROM orders /*+ OPTIONS('a') */;
----
SET 'table.exec.state.ttl' = ;
----
SET 'table.exec.state.ttl' '1h';
----
SET table.exec.state.ttl = '1h';
----
RESET table.exec.state.ttl;
----
RESET 'a' 'b';
----
SHOW TABLES LIKE;
----
SHOW TABLES FROM;
----
SHOW TABLE;
----
SHOW CREATE orders;
----
SHOW COLUMNS orders;
----
SHOW DATABASES NOT;
----
SHOW FULL;
----
DESCRIBE;
----
DESCRIBE EXTENDED;
----
DESC FUNCTION;
----
ALTER TABLE orders ADD;
----
ALTER TABLE orders ADD (x INT,);
----
ALTER TABLE orders MODIFY x;
----
ALTER TABLE orders DROP;
----
ALTER TABLE orders RENAME x y;
----
ALTER TABLE orders SET ('a' = 'b';
----
ALTER TABLE orders RESET 'a';
----
ALTER VIEW v RENAME v2;
----
ALTER DATABASE db SET;
----
ALTER CATALOG c COMMENT;
----
USE CATALOG;
----
USE MODULES core,;
----
USE;
----
EXECUTE STATEMENT SET BEGIN INSERT INTO s SELECT * FROM orders END;
----
EXECUTE STATEMENT SET BEGIN INSERT INTO s SELECT * FROM orders; END
----
BEGIN STATEMENT SET INSERT INTO s SELECT 1;
----
STATEMENT SET BEGIN INSERT INTO s SELECT 1; END;
----
EXPLAIN PLAN SELECT 1;
----
EXPLAIN ESTIMATED_COST JSON_EXECUTION_PLAN, SELECT 1;
----
EXPLAIN CHANGELOG_MODE SELECT;
----
EXPLAIN PLAN FOR;
----
EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT 1;
----
EXPLAIN INSERT;
----
INSERT OVERWRITE s PARTITION (dt = '2024') SELECT 1;
----
INSERT OVERWRITE s PARTITION dt = '2024' SELECT 1;
----
INSERT OVERWRITE s PARTITION (dt '2024') SELECT 1;
----
INSERT OVERWRITE s PARTITION (dt = '2024',) SELECT 1;
----
INSERT INTO s PARTITION (dt = ) SELECT 1;
----
COMPILE PLAN FOR INSERT INTO s SELECT 1;
----
CREATE TEMPORARY VIEW;
----
CREATE FUNCTION f AS;
----
DROP TEMPORARY TABLE;
----
LOAD MODULE;
----
UNLOAD core;
