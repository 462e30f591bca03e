-- MATCH_RECOGNIZE: the after-match skip strategies on overlapping matches (PATTERN (A+ B) over
-- a a a b of key k1: matches start at rows 1, 2 and 3), reluctant against greedy quantifiers,
-- WITHIN, no PARTITION BY, and rows that arrive behind the watermark. Rows wait for the
-- watermark and are matched in event-time order per key.
CREATE TABLE ev (
  k STRING, id INT, v STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '$DATA/mr_events.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
-- SKIP PAST LAST ROW: one match per run
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, COUNT(A.id) AS na, B.id AS b_id
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A+ B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b'
) AS T;
-- SKIP TO NEXT ROW (the default): a match from every start
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, COUNT(A.id) AS na, B.id AS b_id
  PATTERN (A+ B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b'
) AS T;
-- SKIP TO LAST A: the next match starts at the last A row
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, COUNT(A.id) AS na, B.id AS b_id
  AFTER MATCH SKIP TO LAST A
  PATTERN (A+ B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b'
) AS T;
-- SKIP TO FIRST B
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, LAST(B.id) AS b_id
  AFTER MATCH SKIP TO FIRST B
  PATTERN (A B)
  DEFINE A AS A.v IN ('a', 'b'), B AS B.v = 'b'
) AS T;
-- reluctant B+? stops at the first C row; greedy B+ keeps taking rows C also accepts (no match)
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES A.id AS a_id, COUNT(B.id) AS nb, C.id AS c_id, SUM(B.id) AS sum_b, AVG(B.id) AS avg_b
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B+? C)
  DEFINE A AS A.v = 'a', B AS B.v IN ('b', 'c'), C AS C.v = 'c'
) AS T;
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES A.id AS a_id, COUNT(B.id) AS nb, C.id AS c_id
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B+ C)
  DEFINE A AS A.v = 'a', B AS B.v IN ('b', 'c'), C AS C.v = 'c'
) AS T;
-- WITHIN: A rows then a B within 2 seconds of the first A; partial matches starting at 00:00:01,
-- 00:00:02 and 00:00:10 are too old when their B comes (without WITHIN: 1 -> 4 and 10 -> 11)
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS a_id, B.id AS b_id, MATCH_ROWTIME() AS mt
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A+? B) WITHIN INTERVAL '2' SECOND
  DEFINE A AS A.v = 'a', B AS B.v = 'b'
) AS T;
-- no PARTITION BY: one sequence over all rows (a single partition, Exchange single)
SELECT * FROM ev MATCH_RECOGNIZE (
  ORDER BY ts
  MEASURES A.k AS ak, A.id AS a_id, B.id AS b_id, B.k AS bk
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B)
  DEFINE A AS A.v = 'b', B AS B.v = 'a'
) AS T;
EXPLAIN SELECT * FROM ev MATCH_RECOGNIZE (
  ORDER BY ts
  MEASURES A.k AS ak, A.id AS a_id, B.id AS b_id, MATCH_ROWTIME() AS mt
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B) WITHIN INTERVAL '2' SECOND
  DEFINE A AS A.v = 'b', B AS B.v = 'a'
) AS T;
-- late rows: with a watermark after every row, the row with id 14 (00:00:12, read after
-- 00:00:15) is late and dropped, so k1's A 10 is directly followed by the B 11
SET 'weir.exec.chunk-rows' = '1';
SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES A.id AS a_id, B.id AS b_id
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B)
  DEFINE A AS A.v = 'a', B AS B.v = 'b'
) AS T;
