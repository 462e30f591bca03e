-- flink-differential seed 20 query 332 (cdc_project): same final table, different changelog
-- re-run: tests/flink/differential/fuzz.py --seed 20 --only 332
-- t0.json (debezium-json):
--   {"before": null, "after": {"k": "b", "c0": 3, "c1": 6, "c2": false}, "op": "c"}
--   {"before": {"k": "b", "c0": 3, "c1": 6, "c2": false}, "after": {"k": "b", "c0": 13, "c1": 252871477711, "c2": true}, "op": "u"}
CREATE TABLE t0 (
  k STRING,
  c0 SMALLINT,
  c1 BIGINT,
  c2 BOOLEAN,
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
SELECT CAST(0.1 AS DOUBLE) AS e0, CASE WHEN c1 BETWEEN 2 AND -1 THEN -(7) ELSE EXTRACT(SECOND FROM TIMESTAMP '2020-01-01 00:01:08') END AS e1 FROM t0;
