-- Writing 'json': one compact object per line in column order (RowDataToJsonConverters), then
-- read back. DECIMAL as BigDecimal.toString, DOUBLE as Java prints it, TIME without fraction,
-- timestamps in the SQL standard, BYTES base64, NULL as null.
CREATE TABLE src (id INT, name STRING, price DECIMAL(12, 8), score DOUBLE, ts TIMESTAMP(3),
  t TIME(0), d DATE, bin BYTES, tags ARRAY<INT>, attrs MAP<STRING, STRING>, r ROW<a INT, b STRING>)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'json');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
SET 'sql-client.execution.result-mode' = 'tableau';
INSERT INTO src VALUES
  (1, 'a "quoted"\name', 0.00000001, 1.0E10, TIMESTAMP '2024-01-02 03:04:05.120', TIME '10:11:12',
   DATE '2024-02-29', X'010203', ARRAY[1, 2], MAP['k', 'v'], ROW(7, 'x')),
  (2, CAST(NULL AS STRING), 12.5, 0.5, TIMESTAMP '2024-01-02 03:04:05', TIME '00:00:00',
   DATE '1970-01-01', CAST(NULL AS BYTES), CAST(NULL AS ARRAY<INT>), CAST(NULL AS MAP<STRING, STRING>),
   ROW(CAST(NULL AS INT), 'y'));
SELECT * FROM src;

-- ISO-8601 timestamps, plain decimals, null fields left out
CREATE TABLE out2 (id INT, price DECIMAL(12, 8), ts TIMESTAMP(3), note STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'json',
        'json.timestamp-format.standard' = 'ISO-8601', 'json.encode.decimal-as-plain-number' = 'true',
        'json.encode.ignore-null-fields' = 'true');
SET 'table.display.max-column-width' = '200';
INSERT INTO out2 VALUES (1, 0.00000001, TIMESTAMP '2024-01-02 03:04:05.5', CAST(NULL AS STRING));
CREATE TABLE out2_text (line STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out2', 'format' = 'csv', 'csv.null-literal' = '', 'csv.field-delimiter' = '|',
        'csv.disable-quote-character' = 'true');
SELECT * FROM out2_text;
CREATE TABLE out_text (line STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/out', 'format' = 'csv', 'csv.null-literal' = '', 'csv.field-delimiter' = '|',
        'csv.disable-quote-character' = 'true');
SELECT * FROM out_text;
