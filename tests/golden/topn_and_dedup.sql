-- Top-N per group, and deduplication keeping the first and the last row per key.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (SELECT username, url, ts, ROW_NUMBER() OVER (PARTITION BY username ORDER BY ts DESC) AS rn FROM clicks) WHERE rn <= 2;
SELECT username, url FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY username ORDER BY ts ASC) AS rn FROM clicks) WHERE rn = 1;
SELECT username, url FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY username ORDER BY ts DESC) AS rn FROM clicks) WHERE rn = 1;
