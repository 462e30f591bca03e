-- JDBC escapes as Calcite's parser reads them: {d}, {t}, {ts} literals and {fn} scalar functions
-- (mapped to SQL functions; the names Flink's code generator cannot run fail as in Flink).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SELECT {fn UCASE('abc')} AS a, {fn LCASE('ABC')} AS b, {fn LENGTH('abcd')} AS c, {fn CONCAT('a', 'b')} AS d;
SELECT {d '2024-01-02'} AS a, {t '10:11:12'} AS b, {ts '2024-01-02 10:11:12'} AS c, {d '2024-1-2'} AS d;
SELECT { fn UCASE('a') } AS a, {D '2024-01-02'} AS b, {TS '2024-01-02 00:00:01'} AS c;
SELECT {fn ABS(-2)} AS a, {fn MOD(7, 3)} AS b, {fn POWER(2, 3)} AS c, {fn SQRT(16.0)} AS d, {fn LOG(1.0)} AS e, {fn LOG10(100.0)} AS f;
SELECT {fn LOCATE('b', 'abc')} AS a, {fn LTRIM('  x ')} AS b, {fn RTRIM(' x  ')} AS c, {fn IFNULL(CAST(NULL AS INT), 5)} AS d, {fn LOCATE('b', 'abcb', 3)} AS e;
SELECT {fn YEAR(DATE '2024-03-04')} AS a, {fn MONTH(DATE '2024-03-04')} AS b, {fn DAYOFMONTH(DATE '2024-03-04')} AS c, {fn QUARTER(DATE '2024-03-04')} AS d;
SELECT {fn DAYOFWEEK(DATE '2024-03-04')} AS a, {fn DAYOFYEAR(DATE '2024-03-04')} AS b, {fn WEEK(DATE '2024-03-04')} AS c;
SELECT {fn HOUR(TIME '10:11:12')} AS a, {fn MINUTE(TIME '10:11:12')} AS b, {fn SECOND(TIME '10:11:12')} AS c;
SELECT {fn FLOOR(2.5)} AS a, {fn CEILING(2.5)} AS b, {fn SIGN(-3)} AS c, {fn EXP(0.0)} AS d, {fn PI()} AS e, {fn DEGREES(0.0)} AS f;
SELECT {fn SIN(0.0)} AS a, {fn ATAN2(1.0, 1.0)} AS b, {fn RADIANS(0.0)} AS c, {fn COT(1.0)} AS d, {fn ACOS(1.0)} AS e;
SELECT {fn INSERT('abcdef', 2, 3, 'X')} AS a;
SELECT {fn TIMESTAMPADD(SQL_TSI_DAY, 1, TIMESTAMP '2024-01-01 00:00:00')} AS a;
SELECT {fn TIMESTAMPDIFF(SQL_TSI_DAY, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-03 00:00:00')} AS a;
SELECT {fn UCASE(name)} AS a FROM (VALUES ('x'), ('yz')) AS t(name);
SELECT {fn NOSUCH(1)};
