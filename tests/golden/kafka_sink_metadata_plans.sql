-- Writable metadata of the kafka and upsert-kafka sinks (Flink's KafkaDynamicSink: 'headers'
-- MAP<STRING, BYTES> and 'timestamp' TIMESTAMP_LTZ(3)). The query fills the physical and the
-- persisted metadata columns in table order (a VIRTUAL one is not written); the sink consumes
-- the physical columns, then the metadata ones in the connector's order (headers, timestamp),
-- named by their keys and cast to their keys' types; COMPILE PLAN writes the WritingMetadata
-- ability. Equal to Flink 2.3's plans with its Kafka connector (tests/flink/plans.py loads the
-- connector jar). EXPLAIN and COMPILE PLAN connect to no broker.
CREATE TABLE src (id BIGINT, name STRING, ms BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');
CREATE TABLE k (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', p INT METADATA FROM 'partition' VIRTUAL)
  WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k SELECT id, name, TO_TIMESTAMP_LTZ(ms, 3), MAP['a', CAST('x' AS BYTES)] FROM src;
COMPILE PLAN '$TMP/k.json' FOR INSERT INTO k SELECT id, name, TO_TIMESTAMP_LTZ(ms, 3), MAP['a', CAST('x' AS BYTES)] FROM src;
-- metadata columns before and between the physical ones; the column named as its key
CREATE TABLE k2 (ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', id BIGINT, `headers` MAP<STRING, BYTES> METADATA,
  name STRING) WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k2 SELECT TO_TIMESTAMP_LTZ(ms, 3), id, MAP['a', CAST('x' AS BYTES)], name FROM src;
-- a TIMESTAMP(3) column is cast to the key's TIMESTAMP_LTZ(3)
CREATE TABLE k3 (id BIGINT, name STRING, ts TIMESTAMP(3) METADATA FROM 'timestamp')
  WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO k3 SELECT id, name, TO_TIMESTAMP(FROM_UNIXTIME(ms)) FROM src;
COMPILE PLAN '$TMP/k3.json' FOR INSERT INTO k3 SELECT id, name, TO_TIMESTAMP(FROM_UNIXTIME(ms)) FROM src;
-- a column list without the headers column: NULL headers
EXPLAIN INSERT INTO k(id, name, ts) SELECT id, name, TO_TIMESTAMP_LTZ(ms, 3) FROM src;
-- only a VIRTUAL metadata column: nothing written
CREATE TABLE kv (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL)
  WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '127.0.0.1:9', 'format' = 'csv');
EXPLAIN INSERT INTO kv SELECT id, name FROM src;
-- upsert-kafka writes the same keys
CREATE TABLE u (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'csv');
EXPLAIN INSERT INTO u SELECT id, LAST_VALUE(name), MAX(TO_TIMESTAMP_LTZ(ms, 3)), CAST(NULL AS MAP<STRING, BYTES>)
  FROM src GROUP BY id;
COMPILE PLAN '$TMP/u.json' FOR INSERT INTO u SELECT id, LAST_VALUE(name), MAX(TO_TIMESTAMP_LTZ(ms, 3)),
  CAST(NULL AS MAP<STRING, BYTES>) FROM src GROUP BY id;
