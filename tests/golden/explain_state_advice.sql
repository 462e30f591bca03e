-- weir's PLAN_ADVICE beyond Flink's: a regular join against a versioned (primary-keyed, updating)
-- table from an append-only input with a rowtime could be an event-time temporal join; key groups
-- spread unevenly when max parallelism is not a multiple of parallelism (and no warning once it is).
CREATE TABLE shipments (ship_id BIGINT, region STRING, weight DOUBLE, shipped_at TIMESTAMP(3),
  WATERMARK FOR shipped_at AS shipped_at - INTERVAL '2' SECOND) WITH ('connector' = 'datagen');
CREATE TABLE tariffs (region STRING, price DOUBLE, valid_from TIMESTAMP(3),
  PRIMARY KEY (region) NOT ENFORCED, WATERMARK FOR valid_from AS valid_from)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/changes.csv', 'format' = 'changelog-csv');
SET 'table.exec.state.ttl' = '1 d';
SET 'parallelism.default' = '6';
EXPLAIN PLAN_ADVICE SELECT s.ship_id, s.weight * t.price AS cost
FROM shipments s JOIN tariffs t ON s.region = t.region;
SET 'pipeline.max-parallelism' = '96';
EXPLAIN PLAN_ADVICE SELECT region, SUM(weight) FROM shipments GROUP BY region;
