-- flink-differential seed 10 query 244 (join): different final table
-- re-run: tests/flink/differential/fuzz.py --seed 10 --only 244
-- t0.csv (csv):
--   TRUE,Ünïcödé,13,abc,2020-01-01 00:00:42.500
CREATE TABLE t0 (
  k STRING,
  c0 STRING,
  c1 BIGINT,
  c2 STRING,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t0.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- t1.csv (csv):
CREATE TABLE t1 (
  k STRING,
  c0 TIMESTAMP(3),
  c1 STRING
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t1.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- t2.json (json):
CREATE TABLE t2 (
  k BIGINT,
  c0 TIMESTAMP(0),
  c1 STRING,
  c2 DECIMAL(38, 0),
  c3 STRING,
  c4 STRING,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t2.json', 'format' = 'json');
SET 'parallelism.default' = '1';
SET 'state.backend.type' = 'hashmap';
SET 'table.exec.mini-batch.enabled' = 'false';
SET 'table.exec.mini-batch.allow-latency' = '0 ms';
SET 'table.exec.mini-batch.size' = '-1';
SET 'table.optimizer.agg-phase-strategy' = 'AUTO';
SET 'table.optimizer.distinct-agg.split.enabled' = 'false';
SELECT DATE '2020-07-10' AS j0, COALESCE(b.c2, 0.1) AS j1, CAST(TIMESTAMP '2020-01-01 00:03:48' AS DATE) AS j2 FROM t0 a LEFT JOIN t2 b ON CAST(a.k AS STRING) = CAST(b.k AS STRING);
