SELECT a + FROM t;
----
SELECT 1 +;
----
SELECT a FROM t WHERE a =;
----
SELECT a FROM t WHERE a = 1 AND;
----
SELECT a FROM t WHERE a = 1 AND ORDER BY a;
----
SELECT a, FROM t;
----
SELECT a,;
----
SELECT a b c FROM t;
----
SELECT a FROM t WHERE;
----
SELECT a FROM t GROUP BY;
----
SELECT a FROM t GROUP a;
----
SELECT a FROM t ORDER BY a,;
----
SELECT a FROM t LIMIT;
----
SELECT a FROM t LIMIT x;
----
SELECT CAST(a AS) FROM t;
----
SELECT f(1,) FROM t;
----
SELECT a FROM t WHERE a IN ();
----
SELECT (a + 1 FROM t;
----
SELECT a FROM t WHERE (a = 1;
----
SELECT a FROM t JOIN u;
----
SELECT a FROM t JOIN u ON;
----
SELECT a FROM t t1 t2;
----
SELECT * FROM t WHERE a BETWEEN 1;
----
SELECT * FROM t WHERE a IS;
----
SELECT * FROM t WHERE a LIKE;
----
SELECT * FROM t WHERE NOT;
----
SELECT CASE WHEN a THEN 1 FROM t;
----
SELECT CASE a WHEN;
----
SELECT a * FROM t;
----
SELECT a FROM t WHERE a > 1 OR;
----
SELECT a FROM t HAVING;
----
SELECT a FROM t GROUP BY a HAVING COUNT(*) >;
----
SELECT a FROM;
----
SELECT FROM t;
----
SELECT a FROM t UNION;
----
SELECT a AS FROM t;
----
SELECT a || FROM t;
----
SELECT a FROM t WHERE a = 'x' 'y' z;
----
SELECT a FROM t WHERE a = 1);
----
SELECT a FROM t ORDER a;
----
SELECT a FROM t ORDER BY a DESC ASC;
----
SELECT COUNT( FROM t;
----
SELECT a.;
----
SELECT a FROM t WHERE a <> ;
----
SELECT - FROM t;
----
SELECT a FROM t WHERE a = 1 1;
----
INSERT INTO t VALUES (1,;
----
INSERT INTO t VALUES (1 2);
----
INSERT INTO t SELECT;
----
INSERT t VALUES (1);
----
INSERT INTO VALUES (1);
----
INSERT INTO t (a, VALUES (1);
----
INSERT INTO t VALUES 1;
----
CREATE TABLE t (a INT,);
----
CREATE TABLE t (a INT b INT);
----
CREATE TABLE t (a);
----
CREATE TABLE t (a INT) WITH ('x' = );
----
CREATE TABLE t (a INT) WITH ('x' = 'y',);
----
CREATE TABLE t (a INT) WITH ('x' 'y');
----
CREATE TABLE t (a INT, WATERMARK FOR a AS);
----
CREATE TABLE t (a INT, PRIMARY KEY (a) NOT);
----
CREATE TABLE t (a VARCHAR(, b INT);
----
CREATE TABLE (a INT);
----
CREATE TABLE t a INT;
----
CREATE VIEW v AS;
----
CREATE VIEW v SELECT 1;
----
CREATE VIEW v AS SELECT a + FROM t;
----
CREATE VIEW AS SELECT 1;
----
SET 'a' =;
----
SET 'a';
----
SET a = 1;
----
SET 'a' = 'b' 'c' x;
----
SELEC 1;
----
SELECT 1 FROM t WHERE a = 1 GROUP a;
----
DROP TABLE;
----
DROP t;
----
SELECT a FROM t WHERE a = 1 + * 2;
----
SELECT a FROM t WHERE a NOT;
----
SELECT a FROM t WHERE a IS NOT;
----
SELECT a FROM t WHERE a IN (1,;
----
SELECT SUM(a) OVER (PARTITION BY) FROM t;
----
SELECT a FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts),));
----
SELECT a FROM t WHERE a = 1 ORDER BY;
----
SELECT TRIM( FROM t;
----
SELECT a FROM t WHERE EXISTS;
----
SELECT a FROM (SELECT a FROM t;
----
SELECT a FROM t AS;
----
SELECT CAST(a AS INT FROM t;
----
SELECT a FROM t WHERE a =
