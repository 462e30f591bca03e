-- Exchanges gather the rows for each receiving lane into whole chunks and send them when full,
-- before a watermark, idleness, the end or a barrier, and when the sources stop giving full
-- chunks (docs/runtime.md). An event-time TUMBLE behind a keyBy, with a zero-delay watermark:
-- a row that a watermark overtook on the way would be late and dropped, and the window totals
-- would shrink. Chunks of 7 rows (the watermark advances at every chunk) and 3,000 rows over
-- 301 windows and 7 keys, at parallelism 1, 2 and 4, with fixed-width rows (gathered for the
-- local lane too) and with a string column (the local lane's by reference): every run writes
-- the same 2,101 window rows, summed here.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';
SET 'weir.exec.chunk-rows' = '7';
CREATE TABLE src (id INT, ts AS TO_TIMESTAMP_LTZ(CAST(id AS BIGINT) * 100, 3),
  WATERMARK FOR ts AS ts)
  WITH ('connector' = 'datagen', 'number-of-rows' = '3000',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3000');
CREATE TABLE w1 (k INT, ws TIMESTAMP(3), n BIGINT, s BIGINT, tag STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/w1', 'format' = 'csv');
CREATE TABLE w2 (k INT, ws TIMESTAMP(3), n BIGINT, s BIGINT, tag STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/w2', 'format' = 'csv');
CREATE TABLE w4 (k INT, ws TIMESTAMP(3), n BIGINT, s BIGINT, tag STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/w4', 'format' = 'csv');
CREATE VIEW fixed_width AS
SELECT id % 7 AS k, window_start AS ws, COUNT(*) AS n, SUM(CAST(id AS BIGINT)) AS s, 'fixed' AS tag
FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY id % 7, window_start, window_end;
CREATE VIEW labeled AS SELECT id, ts, id % 7 AS k, CONCAT('row-', CAST(id AS STRING)) AS label FROM src;
CREATE VIEW with_string AS
SELECT k, window_start AS ws, COUNT(*) AS n, SUM(CAST(id AS BIGINT)) AS s, MAX(label) AS tag
FROM TABLE(TUMBLE(TABLE labeled, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY k, window_start, window_end;

SET 'parallelism.default' = '1';
INSERT INTO w1 SELECT * FROM fixed_width UNION ALL SELECT * FROM with_string;
SET 'parallelism.default' = '2';
INSERT INTO w2 SELECT * FROM fixed_width UNION ALL SELECT * FROM with_string;
SET 'parallelism.default' = '4';
INSERT INTO w4 SELECT * FROM fixed_width UNION ALL SELECT * FROM with_string;

SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SELECT 'p=1' AS run, tag = 'fixed' AS fixed_width, COUNT(*) AS window_rows, SUM(n) AS total_rows, SUM(s) AS total_ids,
       SUM(n * (EXTRACT(SECOND FROM ws) + 60 * EXTRACT(MINUTE FROM ws))) AS placement
FROM w1 GROUP BY tag = 'fixed'
UNION ALL
SELECT 'p=2', tag = 'fixed', COUNT(*), SUM(n), SUM(s), SUM(n * (EXTRACT(SECOND FROM ws) + 60 * EXTRACT(MINUTE FROM ws))) FROM w2 GROUP BY tag = 'fixed'
UNION ALL
SELECT 'p=4', tag = 'fixed', COUNT(*), SUM(n), SUM(s), SUM(n * (EXTRACT(SECOND FROM ws) + 60 * EXTRACT(MINUTE FROM ws))) FROM w4 GROUP BY tag = 'fixed'
ORDER BY 1, 2;
-- and the rows themselves are the same at every parallelism
SELECT COUNT(*) AS rows_only_in_one FROM (
  (SELECT * FROM w2 EXCEPT SELECT * FROM w1) UNION ALL (SELECT * FROM w1 EXCEPT SELECT * FROM w2)
  UNION ALL (SELECT * FROM w4 EXCEPT SELECT * FROM w1) UNION ALL (SELECT * FROM w1 EXCEPT SELECT * FROM w4));
