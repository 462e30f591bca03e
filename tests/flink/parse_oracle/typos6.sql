SELECT * FROM t, ;
----
SELECT * FROM t NATURAL;
----
SELECT * FROM t CROSS JOIN;
----
SELECT * FROM t CROSS;
----
SELECT * FROM t FULL OUTER u;
----
SELECT * FROM t LEFT;
----
SELECT * FROM t INNER;
----
SELECT * FROM t JOIN;
----
SELECT * FROM t AS x, ;
----
SELECT * FROM t x, ;
----
SELECT * FROM t, u, ;
----
SELECT * FROM t, 1;
----
SELECT * FROM t JOIN u ON a = b, ;
----
SELECT * FROM t LEFT JOIN;
----
SELECT * FROM t NATURAL JOIN;
----
SELECT * FROM t OUTER;
----
SELECT * FROM t CROSS APPLY u;
----
SELECT * FROM t OUTER APPLY u;
----
SELECT * FROM t LEFT OUTER JOIN;
----
SELECT * FROM t NATURAL LEFT;
----
SELECT * FROM t a JOIN;
----
SELECT * FROM t WHERE;
----
SELECT * FROM t x
----
SELECT * FROM t RIGHT OUTER;
----
SELECT * FROM t NATURAL CROSS JOIN u;
----
SELECT * FROM t, LATERAL;
----
SELECT * FROM t, TABLE;
----
SELECT a FROM t INNER JOIN u ON a = 1 LEFT;
----
SELECT * FROM t JOIN u USING;
----
SELECT * FROM t FULL JOIN;
----
SELECT * FROM t RIGHT JOIN u ON;
----
SELECT * FROM t AS x NATURAL;
----
SELECT * FROM t /*+ OPTIONS('a'='b') */ , ;
----
SELECT * FROM t, u WHERE a = 1,;
----
INSERT INTO s SELECT * FROM t, ;
----
SELECT * FROM t INNER LEFT JOIN u;
----
SELECT * FROM t LEFT OUTER OUTER JOIN u;
----
SELECT {fn UCASE('a');
----
SELECT {fn NOSUCH(1)};
----
SELECT {x 1};
----
SELECT 1 + {d;
----
SELECT 1 + {fn;
----
SELECT {d '2024-01-01';
----
SELECT {fn ucase('a')};
----
SELECT {fn UCASE 'a'};
----
SELECT * FROM t /*+ OPTIONS('a' 'b') */;
----
SELECT * FROM t /*+ OPTIONS(k = 'b' */;
----
SELECT /*+ BROADCAST(1, */ * FROM t;
----
SELECT /*+ STATE_TTL('t' = '1d', ) */ * FROM t;
----
SELECT * FROM t /*+ OPTIONS() */;
----
SELECT * FROM t /*+ OPTIONS( */;
----
SELECT /*+ LOOKUP('table' = 'd' 'retry-predicate' = 'lookup_miss') */ * FROM t;
----
SELECT * FROM t /*+ OPTIONS('a' = 'b',) */;
----
SELECT /*+ BROADCAST(a b) */ * FROM t;
----
SELECT /*+ BROADCAST(x, 1) */ * FROM t;
----
SELECT /*+ STATE_TTL('a' = '1d' 'b' = '2d') */ * FROM t;
----
SELECT /*+ BROADCAST(x y) */ * FROM t;
