SELECT user_id, SUM(amount) AS total FROM payments GROUP BY user_id HAVING total >;
----
SELECT * FROM payments WHERE amount > 100 AND AND status = 'ok';
----
SELECT * FROM payments WHERE amount BETWEEN 1 AND;
----
SELECT * FROM payments WHERE status NOT IN;
----
SELECT * FROM payments WHERE status IN 'a', 'b';
----
SELECT user_id FROM payments WHERE user_id = (SELECT MAX(user_id) FROM users;
----
SELECT user_id, FROM payments GROUP BY user_id;
----
SELECT user_id amount FROM payments ORDER BY;
----
SELECT user_id FROM payments ORDER BY amount DESC,;
----
SELECT user_id FROM payments LIMIT 10 OFFSET;
----
SELECT COALESCE(a, FROM payments;
----
SELECT CONCAT(a, b c) FROM payments;
----
SELECT a FROM payments p JOIN users u ON p.uid = u.id AND u.age > ;
----
SELECT a FROM payments p LEFT JOIN users u ON;
----
SELECT a FROM payments p JOIN users u USING;
----
SELECT a FROM payments WHERE ts >= TIMESTAMP;
----
SELECT a FROM payments WHERE a IS NOT NULL OR;
----
SELECT a FROM payments WHERE NOT a = 1 AND NOT;
----
SELECT a * (b + c FROM payments;
----
SELECT a FROM payments WHERE a LIKE '%x%' ESCAPE;
----
SELECT a FROM payments WHERE a = 1 GROUP BY a, b HAVING;
----
SELECT a FROM payments UNION ALL;
----
SELECT a FROM payments UNION SELECT b FROM users WHERE;
----
SELECT a + 1 AS FROM payments;
----
SELECT a AS b AS c FROM payments;
----
INSERT INTO sink SELECT a, b FROM payments WHERE a <;
----
INSERT INTO sink VALUES ('a' 'b' c);
----
CREATE TABLE sink (a INT, b STRING) WITH ('connector' = 'print',;
----
CREATE VIEW v AS SELECT a FROM payments WHERE a >;
----
CREATE VIEW v AS SELECT a FROM payments GROUP BY;
----
SET 'table.exec.state.ttl' = '1h' 'x' y;
----
SELECT a FROM payments WHERE a + 1 = ;
----
SELECT a FROM payments WHERE (a, b) IN;
----
SELECT a FROM payments WHERE a IS TRUE AND;
----
SELECT a FROM payments WHERE b = TRUE OR c = FALSE AND;
----
SELECT a FROM payments WHERE a % 2 = 0 OR;
----
SELECT UPPER(name) || ' ' || FROM users;
----
SELECT a FROM payments WHERE a NOT LIKE;
----
SELECT a FROM payments WHERE a NOT BETWEEN;
----
SELECT CASE WHEN a > 1 THEN 'x' WHEN THEN 'y' END FROM payments;
