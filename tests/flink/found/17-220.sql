-- flink-differential seed 17 query 220 (typeof): different final table
-- re-run: tests/flink/differential/fuzz.py --seed 17 --only 220
-- t0.csv (csv):
--   Ünïcödé,1,2,0,1,0
CREATE TABLE t0 (
  k STRING,
  c0 INT,
  c1 INT,
  c2 TINYINT,
  c3 SMALLINT,
  c4 STRING
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t0.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- t1.csv (csv):
CREATE TABLE t1 (
  k BIGINT,
  c0 DATE,
  c1 DATE,
  c2 STRING,
  c3 BIGINT,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t1.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'parallelism.default' = '1';
SET 'state.backend.type' = 'hashmap';
SET 'table.exec.mini-batch.enabled' = 'false';
SET 'table.exec.mini-batch.allow-latency' = '0 ms';
SET 'table.exec.mini-batch.size' = '-1';
SET 'table.optimizer.agg-phase-strategy' = 'AUTO';
SET 'table.optimizer.distinct-agg.split.enabled' = 'false';
SELECT DISTINCT TYPEOF(1.5e0) AS t0, TYPEOF(1.5e0 + MOD(c2, 7)) AS t1, TYPEOF(FLOOR(-2.75) + 7) AS t2, TYPEOF(CASE WHEN (TRUE OR TRUE) THEN CASE WHEN TRUE THEN 2e0 ELSE c1 END ELSE CASE WHEN FALSE THEN 2e0 ELSE c0 END END) AS t3 FROM t0;
