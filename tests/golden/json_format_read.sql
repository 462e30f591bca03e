-- The 'json' format: one JSON object per line, members matched to columns by name (unknown ones
-- ignored, missing ones NULL), nested objects as ROW / MAP, arrays, numbers given as strings,
-- SQL timestamps ('yyyy-MM-dd HH:mm:ss[.f]', TIMESTAMP_LTZ with 'Z'), BYTES as base64, and JSON
-- objects/arrays read into a STRING column as their JSON text.
CREATE TABLE t (
  id INT, name STRING, ok BOOLEAN, score DOUBLE, price DECIMAL(10, 2), tags ARRAY<STRING>,
  addr ROW<city STRING, zip INT>, attrs MAP<STRING, INT>, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3),
  d DATE, t TIME(0), bin BYTES, payload STRING, bigv BIGINT
) WITH ('connector' = 'filesystem', 'path' = '$DATA/json_types.json', 'format' = 'json');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'UTC';
SELECT id, name, ok, score, price, tags, addr, attrs FROM t;
SELECT id, ts, ltz, d, t, bin, payload, bigv FROM t;
SELECT id, addr.city, tags[1], attrs['k1'] FROM t WHERE addr IS NOT NULL;

-- ISO-8601 timestamps
CREATE TABLE iso (ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/json_iso.json', 'format' = 'json',
        'json.timestamp-format.standard' = 'ISO-8601');
SELECT * FROM iso;
