-- SHOW CREATE VIEW of set operations chained over tables and a constant row (a SELECT without FROM).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen');
CREATE TABLE u (a INT, c STRING) WITH ('connector' = 'datagen');
CREATE VIEW u1 AS SELECT a FROM t UNION ALL SELECT a FROM u UNION ALL SELECT 1;
SHOW CREATE VIEW u1;
CREATE VIEW u2 AS SELECT a, b FROM t UNION SELECT 2, 'two';
SHOW CREATE VIEW u2;
CREATE VIEW u3 AS SELECT a FROM t EXCEPT SELECT a FROM u WHERE c = 'x';
SHOW CREATE VIEW u3;
