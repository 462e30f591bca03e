-- Numbers in JSON read into each numeric type and STRING, three ways Flink decodes them: the
-- 'json' format's streaming parser (the default), Jackson tree nodes ('json' with
-- json.decode.json-parser.enabled = false, and always 'debezium-json'), and tree nodes with a
-- DECIMAL among the columns read (Jackson's USE_BIG_DECIMAL_FOR_FLOATS: floats become decimals
-- without trailing zeros, so -0.0 reads as 0.0). A float into INT/BIGINT is truncated; a value
-- out of range is a parse error (NULL with ignore-parse-errors). FLOAT leaves out the two values
-- Java 17 prints with a digit more than the shortest form (docs/user-guide.md, differences).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
CREATE TABLE p_int (v0 INT, v1 INT, v2 INT, v3 INT, v4 INT, v5 INT, v6 INT, v7 INT, v8 INT, v9 INT, v10 INT, v11 INT, v12 INT, v13 INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_int (v0 INT, v1 INT, v2 INT, v3 INT, v4 INT, v5 INT, v6 INT, v7 INT, v8 INT, v9 INT, v10 INT, v11 INT, v12 INT, v13 INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_int (v0 INT, v1 INT, v2 INT, v3 INT, v4 INT, v5 INT, v6 INT, v7 INT, v8 INT, v9 INT, v10 INT, v11 INT, v12 INT, v13 INT, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE p_bigint (v0 BIGINT, v1 BIGINT, v2 BIGINT, v3 BIGINT, v4 BIGINT, v5 BIGINT, v6 BIGINT, v7 BIGINT, v8 BIGINT, v9 BIGINT, v10 BIGINT, v11 BIGINT, v12 BIGINT, v13 BIGINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_bigint (v0 BIGINT, v1 BIGINT, v2 BIGINT, v3 BIGINT, v4 BIGINT, v5 BIGINT, v6 BIGINT, v7 BIGINT, v8 BIGINT, v9 BIGINT, v10 BIGINT, v11 BIGINT, v12 BIGINT, v13 BIGINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_bigint (v0 BIGINT, v1 BIGINT, v2 BIGINT, v3 BIGINT, v4 BIGINT, v5 BIGINT, v6 BIGINT, v7 BIGINT, v8 BIGINT, v9 BIGINT, v10 BIGINT, v11 BIGINT, v12 BIGINT, v13 BIGINT, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE p_smallint (v0 SMALLINT, v1 SMALLINT, v2 SMALLINT, v3 SMALLINT, v4 SMALLINT, v5 SMALLINT, v6 SMALLINT, v7 SMALLINT, v8 SMALLINT, v9 SMALLINT, v10 SMALLINT, v11 SMALLINT, v12 SMALLINT, v13 SMALLINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_smallint (v0 SMALLINT, v1 SMALLINT, v2 SMALLINT, v3 SMALLINT, v4 SMALLINT, v5 SMALLINT, v6 SMALLINT, v7 SMALLINT, v8 SMALLINT, v9 SMALLINT, v10 SMALLINT, v11 SMALLINT, v12 SMALLINT, v13 SMALLINT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_smallint (v0 SMALLINT, v1 SMALLINT, v2 SMALLINT, v3 SMALLINT, v4 SMALLINT, v5 SMALLINT, v6 SMALLINT, v7 SMALLINT, v8 SMALLINT, v9 SMALLINT, v10 SMALLINT, v11 SMALLINT, v12 SMALLINT, v13 SMALLINT, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE p_string (v0 STRING, v1 STRING, v2 STRING, v3 STRING, v4 STRING, v5 STRING, v6 STRING, v7 STRING, v8 STRING, v9 STRING, v10 STRING, v11 STRING, v12 STRING, v13 STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_string (v0 STRING, v1 STRING, v2 STRING, v3 STRING, v4 STRING, v5 STRING, v6 STRING, v7 STRING, v8 STRING, v9 STRING, v10 STRING, v11 STRING, v12 STRING, v13 STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_string (v0 STRING, v1 STRING, v2 STRING, v3 STRING, v4 STRING, v5 STRING, v6 STRING, v7 STRING, v8 STRING, v9 STRING, v10 STRING, v11 STRING, v12 STRING, v13 STRING, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE p_double (v0 DOUBLE, v1 DOUBLE, v2 DOUBLE, v3 DOUBLE, v4 DOUBLE, v5 DOUBLE, v6 DOUBLE, v7 DOUBLE, v8 DOUBLE, v9 DOUBLE, v10 DOUBLE, v11 DOUBLE, v12 DOUBLE, v13 DOUBLE) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_double (v0 DOUBLE, v1 DOUBLE, v2 DOUBLE, v3 DOUBLE, v4 DOUBLE, v5 DOUBLE, v6 DOUBLE, v7 DOUBLE, v8 DOUBLE, v9 DOUBLE, v10 DOUBLE, v11 DOUBLE, v12 DOUBLE, v13 DOUBLE) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_double (v0 DOUBLE, v1 DOUBLE, v2 DOUBLE, v3 DOUBLE, v4 DOUBLE, v5 DOUBLE, v6 DOUBLE, v7 DOUBLE, v8 DOUBLE, v9 DOUBLE, v10 DOUBLE, v11 DOUBLE, v12 DOUBLE, v13 DOUBLE, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE p_float (v0 FLOAT, v1 FLOAT, v2 FLOAT, v3 FLOAT, v4 FLOAT, v5 FLOAT, v6 FLOAT, v7 FLOAT, v8 FLOAT, v9 FLOAT, v10 FLOAT, v11 FLOAT, v12 FLOAT, v13 FLOAT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
CREATE TABLE t_float (v0 FLOAT, v1 FLOAT, v2 FLOAT, v3 FLOAT, v4 FLOAT, v5 FLOAT, v6 FLOAT, v7 FLOAT, v8 FLOAT, v9 FLOAT, v10 FLOAT, v11 FLOAT, v12 FLOAT, v13 FLOAT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE d_float (v0 FLOAT, v1 FLOAT, v2 FLOAT, v3 FLOAT, v4 FLOAT, v5 FLOAT, v6 FLOAT, v7 FLOAT, v8 FLOAT, v9 FLOAT, v10 FLOAT, v11 FLOAT, v12 FLOAT, v13 FLOAT, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_numbers.json', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.decode.json-parser.enabled' = 'false');
CREATE TABLE dbz_string (v0 STRING, v1 STRING, v2 STRING, v3 STRING, v4 STRING, v5 STRING, v6 STRING, v7 STRING, v8 STRING, v9 STRING, v10 STRING, v11 STRING, v12 STRING, v13 STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_numbers.json', 'format' = 'debezium-json', 'debezium-json.ignore-parse-errors' = 'true');
CREATE TABLE dbz_double (v0 DOUBLE, v1 DOUBLE, v2 DOUBLE, v3 DOUBLE, v4 DOUBLE, v5 DOUBLE, v6 DOUBLE, v7 DOUBLE, v8 DOUBLE, v9 DOUBLE, v10 DOUBLE, v11 DOUBLE, v12 DOUBLE, v13 DOUBLE) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_numbers.json', 'format' = 'debezium-json', 'debezium-json.ignore-parse-errors' = 'true');
CREATE TABLE dbzd_double (v0 DOUBLE, v1 DOUBLE, v2 DOUBLE, v3 DOUBLE, v4 DOUBLE, v5 DOUBLE, v6 DOUBLE, v7 DOUBLE, v8 DOUBLE, v9 DOUBLE, v10 DOUBLE, v11 DOUBLE, v12 DOUBLE, v13 DOUBLE, x DECIMAL(3, 1)) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_numbers.json', 'format' = 'debezium-json', 'debezium-json.ignore-parse-errors' = 'true');
SELECT * FROM p_int;
SELECT * FROM t_int;
SELECT * FROM d_int;
SELECT * FROM p_bigint;
SELECT * FROM t_bigint;
SELECT * FROM d_bigint;
SELECT * FROM p_smallint;
SELECT * FROM t_smallint;
SELECT * FROM d_smallint;
SELECT * FROM p_string;
SELECT * FROM t_string;
SELECT * FROM d_string;
SELECT * FROM p_double;
SELECT * FROM t_double;
SELECT * FROM d_double;
SELECT v0, v1, v3, v4, v5, v6, v7, v8, v9, v11, v12, v13 FROM p_float;
SELECT v0, v1, v3, v4, v5, v6, v7, v8, v9, v11, v12, v13 FROM t_float;
SELECT v0, v1, v3, v4, v5, v6, v7, v8, v9, v11, v12, v13 FROM d_float;
SELECT * FROM dbz_string;
SELECT * FROM dbz_double;
SELECT * FROM dbzd_double;
-- the DECIMAL column is not read: the tree nodes are plain doubles again
SELECT v5, v6, v7 FROM dbzd_double;
