-- COUNT(DISTINCT), FILTER (WHERE ...), LISTAGG and FIRST/LAST_VALUE.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT username, COUNT(DISTINCT url) AS urls, COUNT(*) FILTER (WHERE url = '/home') AS homes,
  LISTAGG(url) AS path, FIRST_VALUE(url) AS first_url, LAST_VALUE(url) AS last_url
FROM clicks GROUP BY username;
