-- SHOW CREATE TABLE prints the DDL as Flink's SQL client does: one "result" cell holding the
-- statement with backquoted identifiers, serializable types (STRING as VARCHAR(2147483647)), the
-- computed column by its expression, the watermark, the primary key constraint, comment,
-- PARTITIONED BY and the options sorted by key.
CREATE TABLE IF NOT EXISTS shipments (
  `sku` BIGINT NOT NULL,
  carrier VARCHAR(16),
  weight DECIMAL(8, 3),
  note STRING COMMENT 'free text',
  shipped_at TIMESTAMP(3),
  seen AS PROCTIME(),
  PRIMARY KEY (`sku`) NOT ENFORCED,
  WATERMARK FOR shipped_at AS shipped_at - INTERVAL '5' SECOND
) WITH ('connector' = 'datagen', 'number-of-rows' = '10');
SHOW CREATE TABLE shipments;
CREATE TABLE daily (d STRING, region STRING, cnt BIGINT, tags ARRAY<STRING>, loc ROW<lat DOUBLE, lon DOUBLE>)
  COMMENT 'per day and region'
  PARTITIONED BY (d, region)
  WITH ('path' = '/tmp/weir-daily', 'format' = 'csv', 'connector' = 'filesystem');
SHOW CREATE TABLE daily;
CREATE TEMPORARY VIEW v AS SELECT sku FROM shipments;
SHOW CREATE TABLE v;
