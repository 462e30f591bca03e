-- flink-differential seed 17 query 114 (over): different rows
-- re-run: tests/flink/differential/fuzz.py --seed 17 --only 114
-- t0.csv (csv):
--   3,,2020-01-01 00:01:14.174557,99.50,-17121,2020-01-01 00:00:16.500
--   373886069169,true,,0.1,2,2020-01-01 00:00:31.000
--   3,true,2020-01-01 00:03:38.109306,,,2020-01-01 00:00:31.500
--   3,true,2020-01-01 00:02:59.599131,1e10,,2020-01-01 00:00:23.000
CREATE TABLE t0 (
  k BIGINT,
  c0 BOOLEAN,
  c1 TIMESTAMP(6),
  c2 DOUBLE,
  c3 INT,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t0.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- t1.csv (csv):
--   3,3,
--   0,14,2016-03-11
--   0,-3,2018-09-02
--   ,73422,2017-02-14
--   3,-59655,2025-09-09
--   -18651059782,1,2000-09-13
--   0,1,
--   -234253058955,,2001-07-02
--   -234253058955,,2001-07-02
--   14,-67802,2020-12-13
--   0,-5,2027-01-23
--   913525964632,4,2000-03-04
CREATE TABLE t1 (
  k BIGINT,
  c0 INT,
  c1 DATE
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t1.csv', 'format' = 'csv', 'csv.null-literal' = '');
-- t2.csv (csv):
--   abc,TRUE,,2020-01-01 00:00:23,2020-01-01 00:00:00.000
--   日本語,zz,日本語,,2020-01-01 00:00:00.000
--   x y,x y,,2020-01-01 00:00:02,2020-01-01 00:00:04.000
--   foo_bar,-3.5,12,2020-01-01 00:02:45,2020-01-01 00:00:04.500
--   foo_bar,ab,0,2020-01-01 00:00:11,2020-01-01 00:00:07.500
--   foo_bar,ab,0,2020-01-01 00:00:11,2020-01-01 00:00:09.500
--   foo_bar,-3.5,Ünïcödé,2020-01-01 00:00:35,2020-01-01 00:00:09.500
--   0,é,abc,2020-01-01 00:02:12,2020-01-01 00:00:09.500
--   ß,b,true,2020-01-01 00:02:59,2020-01-01 00:00:12.500
--   ,A,日本語,2020-01-01 00:02:10,2020-01-01 00:00:15.500
--   0,12,hello world,2020-01-01 00:02:10,2020-01-01 00:00:15.500
--   foo_bar,2020-01-01,日本語,2020-01-01 00:00:13,2020-01-01 00:00:18.500
--   c,ß,,2020-01-01 00:01:32,2020-01-01 00:00:21.500
--   0,2020-01-01,Ünïcödé,2020-01-01 00:02:03,2020-01-01 00:00:13.500
--   12,,hello world,2020-01-01 00:02:35,2020-01-01 00:00:24.500
--   12,,hello world,2020-01-01 00:02:35,2020-01-01 00:00:25.000
--   ab,true,A,2020-01-01 00:02:03,2020-01-01 00:00:28.000
--   日本語,0,a_c,,2020-01-01 00:00:31.000
--   ab,-3.5,c,2020-01-01 00:02:03,2020-01-01 00:00:34.000
--   foo_bar,A,-3.5,2020-01-01 00:03:33,2020-01-01 00:00:34.500
--   0,c,x y,2020-01-01 00:01:47,2020-01-01 00:00:37.500
--   zz,0,日本語,2020-01-01 00:01:11,2020-01-01 00:00:37.500
--   A,foo_bar,straße,2020-01-01 00:00:33,2020-01-01 00:00:38.500
--   A,A,ab,,2020-01-01 00:00:41.500
--   abc,b,zz,2020-01-01 00:01:42,2020-01-01 00:00:44.500
--   abc,b,zz,2020-01-01 00:01:42,2020-01-01 00:00:45.500
--   foo_bar,TRUE,zz,2020-01-01 00:03:21,2020-01-01 00:00:36.500
--   foo_bar,foo_bar,ab,2020-01-01 00:00:23,2020-01-01 00:00:47.500
--   abc,日本語,c,2020-01-01 00:00:01,2020-01-01 00:00:50.500
--   foo_bar,,abc,2020-01-01 00:03:33,2020-01-01 00:00:50.500
CREATE TABLE t2 (
  k STRING,
  c0 STRING,
  c1 STRING,
  c2 TIMESTAMP(0),
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t2.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'parallelism.default' = '1';
SET 'state.backend.type' = 'hashmap';
SET 'table.exec.mini-batch.enabled' = 'false';
SET 'table.exec.mini-batch.allow-latency' = '0 ms';
SET 'table.exec.mini-batch.size' = '-1';
SET 'table.optimizer.agg-phase-strategy' = 'AUTO';
SET 'table.optimizer.distinct-agg.split.enabled' = 'false';
SELECT k, ts, MIN(c3) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW) AS o FROM t0;
