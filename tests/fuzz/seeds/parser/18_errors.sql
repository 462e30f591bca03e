SELECT /*; 
SELECT * FROM
CREATE TABLE t (value INT);
SELECT a b c FROM t;
SELECT `a
SELECT #;
SELECT "x" FROM t;
SELECT ((((((((((((((((((((1))))))))))))))))))));
