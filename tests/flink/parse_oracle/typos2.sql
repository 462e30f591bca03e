SELECT id, name FROM users WHERE age >= AND city = 'x';
----
SELECT id FROM users WHERE name LIKE 'a%' OR;
----
SELECT COUNT(*) FROM orders GROUP BY customer_id HAVING SUM(amount) > ORDER BY 1;
----
SELECT id - FROM users;
----
SELECT id / , name FROM users;
----
SELECT upper(name) || FROM users;
----
SELECT id FROM users WHERE id % ;
----
SELECT id FROM users u JOIN orders o ON u.id = o.uid AND;
----
SELECT id FROM users WHERE status IN ('a', 'b';
----
SELECT id FROM users WHERE (age > 1 OR age < 5;
----
SELECT name AS n, FROM users;
----
SELECT id name age FROM users;
----
SELECT * FROM users WHERE id = 1 ORDER BY id DESC LIMIT 5 1;
----
SELECT * FROM users ORDER BY name,, id;
----
SELECT * FROM users GROUP BY name,;
----
SELECT CASE WHEN x > 1 THEN 'a' ELSE FROM t;
----
SELECT CASE x WHEN 1 'a' END FROM t;
----
SELECT CAST(x AS INT FROM t;
----
SELECT SUM(x FROM t;
----
SELECT f(x,, y) FROM t;
----
SELECT * FROM t WHERE x NOT BETWEEN 1 AND;
----
SELECT * FROM t WHERE x IS NOT NULL AND;
----
SELECT * FROM t WHERE x = 'a' 'b' OR;
----
SELECT * FROM t WHERE x <= ;
----
SELECT * FROM t WHERE x != y y;
----
SELECT * FROM t WHERE x > 1 GROUP x;
----
SELECT * FROM t WHERE x > 1 LIMIT;
----
SELECT * FROM t JOIN u;
----
SELECT * FROM t LEFT JOIN u ON t.a = u.a WHERE AND x;
----
SELECT * FROM t, ;
----
SELECT * FROM t WHERE a = 1 UNION SELECT;
----
SELECT DISTINCT FROM t;
----
SELECT a FROM t WHERE a IN (SELECT b FROM u;
----
SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE;
----
INSERT INTO sink SELECT a + FROM t;
----
INSERT INTO sink (a, b VALUES (1, 2);
----
INSERT INTO sink VALUES (1, 2,);
----
INSERT INTO sink VALUES (1 + , 2);
----
CREATE TABLE t (id INT, name STRING,) WITH ('connector' = 'datagen');
----
CREATE TABLE t (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts -) WITH ('connector' = 'datagen');
----
CREATE TABLE t (id INT PRIMARY KEY) WITH ('connector' = 'datagen');
----
CREATE TABLE t (id INT) WITH ('connector' 'datagen');
----
CREATE TABLE t (id INT) WITH ('connector' = 'datagen' 'rows-per-second' = '1');
----
CREATE TABLE t (id INT, v AS id +) WITH ('connector' = 'datagen');
----
CREATE VIEW v AS SELECT a FROM t WHERE;
----
CREATE VIEW v AS SELECT a, FROM t;
----
CREATE VIEW v (a, AS SELECT 1;
----
SET 'parallelism.default' = ;
----
SET 'parallelism.default' '2';
----
EXPLAIN SELECT a + FROM t;
----
SELECT a FROM t WHERE b = 1 AND c = ;
----
SELECT a FROM t WHERE NOT b = ;
----
SELECT a FROM t WHERE b BETWEEN AND 2;
----
SELECT a FROM t WHERE b LIKE AND c;
----
SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE),;
----
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE) GROUP BY window_start;
----
SELECT a FROM t WHERE a = 1 AND b = 2 AND;
----
SELECT a FROM t WHERE a * 2 + ;
----
SELECT a FROM t WHERE -;
----
SELECT a, b c, FROM t;
