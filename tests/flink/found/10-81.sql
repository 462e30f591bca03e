-- flink-differential seed 10 query 81 (cdc_agg): different rows
-- re-run: tests/flink/differential/fuzz.py --seed 10 --only 81
-- t0.json (debezium-json):
--   {"before": null, "after": {"k": "x y", "c0": 536}, "op": "c"}
CREATE TABLE t0 (
  k STRING,
  c0 SMALLINT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '$DATA/t0.json', 'format' = 'debezium-json');
SET 'parallelism.default' = '1';
SET 'state.backend.type' = 'hashmap';
SET 'table.exec.mini-batch.enabled' = 'false';
SET 'table.exec.mini-batch.allow-latency' = '0 ms';
SET 'table.exec.mini-batch.size' = '-1';
SET 'table.optimizer.agg-phase-strategy' = 'AUTO';
SET 'table.optimizer.distinct-agg.split.enabled' = 'false';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
SELECT LPAD(k, 2, '*') AS g0, 0 * c0 AS g1, COUNT(c0) AS a0, COUNT(*) AS a1 FROM t0 GROUP BY LPAD(k, 2, '*'), 0 * c0;
