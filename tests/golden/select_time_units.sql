-- YEAR, MONTH, DAYOFMONTH, QUARTER, WEEK, DAYOFYEAR, DAYOFWEEK, HOUR, MINUTE, SECOND and EXTRACT on
-- dates and timestamps, in a SELECT list and a WHERE condition (Flink's plans show them all as
-- EXTRACT with its time unit).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW t AS SELECT x, CAST(d AS DATE) AS d, CAST(ts AS TIMESTAMP(3)) AS ts
  FROM (VALUES (1, '2024-02-29', '2024-02-29 10:11:12.345'), (2, '2023-12-31', '2023-12-31 23:59:59'),
               (3, '2025-01-01', '2025-01-01 00:00:00')) AS v(x, d, ts);
SELECT x, YEAR(d) AS y, MONTH(d) AS m, DAYOFMONTH(d) AS dm, QUARTER(d) AS q, WEEK(d) AS w, DAYOFYEAR(d) AS dy,
       DAYOFWEEK(d) AS dw FROM t WHERE YEAR(d) > 2023;
SELECT x, HOUR(ts) AS h, MINUTE(ts) AS mi, SECOND(ts) AS s, EXTRACT(DAY FROM ts) AS ed, EXTRACT(DOW FROM d) AS edw,
       EXTRACT(MILLISECOND FROM ts) AS ems FROM t WHERE EXTRACT(MONTH FROM ts) >= 2;
