-- The string functions Flink users reach for first.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT UPPER('weir') AS u, LOWER('WeIr') AS l, TRIM('  x  ') AS t, TRIM(LEADING 'x' FROM 'xxabc') AS tl,
  SUBSTRING('streaming' FROM 3 FOR 4) AS sub, CONCAT('a', 'b', 'c') AS cat, CONCAT_WS('-', 'a', CAST(NULL AS STRING), 'c') AS ws,
  CHAR_LENGTH('héllo') AS len, REPLACE('a-b-c', '-', '+') AS rep, INITCAP('hello world') AS ic,
  LPAD('7', 3, '0') AS lp, RPAD('ab', 4, '.') AS rp, SPLIT_INDEX('a,b,c', ',', 1) AS si,
  REGEXP_EXTRACT('order-1234-x', 'order-(\d+)', 1) AS rx, REGEXP_REPLACE('a1b22c', '[0-9]+', '#') AS rr,
  'abc' LIKE 'a%' AS lk, 'abc' || 'def' AS pipe;
