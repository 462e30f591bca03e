-- Flink's JSON functions. Paths are strict unless prefixed with 'lax'; output JSON is compact with
-- object keys sorted.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '60';

-- IS JSON
SELECT '1' IS JSON AS a, '[]' IS JSON AS b, '{}' IS JSON OBJECT AS c, '"abc"' IS JSON SCALAR AS d,
  'abc' IS JSON AS e, '1' IS JSON ARRAY AS f, '{}' IS JSON SCALAR AS g, '{' IS NOT JSON AS h,
  CAST(NULL AS STRING) IS JSON AS i;

-- JSON_EXISTS
SELECT JSON_EXISTS('{"a": true}', '$.a') AS a, JSON_EXISTS('{"a": true}', '$.b') AS b,
  JSON_EXISTS('{"a": [{"b": 1}]}', '$.a[0].b') AS c, JSON_EXISTS('{"a": [1]}', 'strict $.a[5]' UNKNOWN ON ERROR) AS d,
  JSON_EXISTS('{"a": [1]}', 'lax $.a[5]') AS e, JSON_EXISTS('{"a": null}', 'lax $.a') AS f,
  JSON_EXISTS('{"a": true}', 'strict $.b' TRUE ON ERROR) AS g, JSON_EXISTS('not json', 'lax $') AS h;

-- JSON_VALUE: STRING by default, Java's renderings of numbers, RETURNING, ON EMPTY / ON ERROR
SELECT JSON_VALUE('{"a": true}', '$.a') AS a, JSON_VALUE('{"a": 1.50}', '$.a') AS b,
  JSON_VALUE('{"a": 1e3}', '$.a') AS c, JSON_VALUE('{"a": "x"}', '$.a') AS d,
  JSON_VALUE('{"a": [1, 2]}', 'lax $.a') AS e, JSON_VALUE('{"a": [1, 2]}', '$.a[1]') AS f,
  JSON_VALUE('{"a": {"b": 7}}', '$.a.b' RETURNING INT) + 1 AS g,
  JSON_VALUE('{"a": "12.75"}', '$.a' RETURNING DOUBLE) AS h,
  JSON_VALUE('{"a": 12.755}', '$.a' RETURNING DECIMAL(5, 2)) AS i,
  JSON_VALUE('{"a": "yes"}', '$.a' RETURNING BOOLEAN) AS j;
SELECT JSON_VALUE('{}', 'lax $.b' DEFAULT 'none' ON EMPTY) AS a,
  JSON_VALUE('{"a": [1]}', 'strict $.a' DEFAULT 'err' ON ERROR) AS b,
  JSON_VALUE('{"a": "x"}', '$.a' RETURNING INT DEFAULT -1 ON ERROR) AS c,
  JSON_VALUE('{"a": null}', 'lax $.a' DEFAULT 'was null' ON EMPTY) AS d,
  JSON_VALUE('{"a": 1}', '$.b' NULL ON EMPTY DEFAULT 'strict error' ON ERROR) AS e,
  JSON_VALUE('{"a": 1}', '$[' DEFAULT 'bad path' ON ERROR) AS f,
  JSON_VALUE(CAST(NULL AS STRING), '$.a') AS g;

-- JSON_QUERY: wrappers, ON EMPTY / ON ERROR, wildcards
SELECT JSON_QUERY('{"a": {"z": 1, "b": [1, 2]}}', '$.a') AS a,
  JSON_QUERY('{"a": 1}', '$.a' WITH WRAPPER) AS b,
  JSON_QUERY('{"a": [1, 2]}', '$.a' WITH CONDITIONAL ARRAY WRAPPER) AS c,
  JSON_QUERY('{"a": 1}', 'lax $.a' EMPTY ARRAY ON EMPTY) AS d,
  JSON_QUERY('{"a": [{"x": 1}, {"x": "two"}]}', '$.a[*].x') AS e,
  JSON_QUERY('{"a": 1}', 'strict $.a' EMPTY OBJECT ON ERROR) AS f,
  JSON_QUERY('{"a": 1}', 'strict $.a') AS g,
  JSON_QUERY('[1, [2, 3], {"k": [4]}]', '$..k') AS h;

-- JSON_STRING, JSON_OBJECT, JSON_ARRAY
SELECT JSON_STRING(1) AS a, JSON_STRING('abc') AS b, JSON_STRING(TRUE) AS c, JSON_STRING(1.5) AS d,
  JSON_STRING(ARRAY[1, 2]) AS e, JSON_STRING(CAST(NULL AS INT)) AS f, JSON_STRING(DATE '2024-01-31') AS g;
SELECT JSON_OBJECT() AS a, JSON_OBJECT('b' VALUE 1, 'a' VALUE 'x') AS b,
  JSON_OBJECT(KEY 'k' VALUE CAST(NULL AS STRING)) AS c,
  JSON_OBJECT(KEY 'k' VALUE CAST(NULL AS STRING) ABSENT ON NULL) AS d,
  JSON_OBJECT('o' VALUE JSON_OBJECT('x' VALUE 1), 'arr' VALUE JSON_ARRAY(1, 'two')) AS e,
  JSON_OBJECT('s' VALUE '{"x":1}') AS f;
SELECT JSON_ARRAY() AS a, JSON_ARRAY(1, 'a', TRUE, 2.5) AS b, JSON_ARRAY(1, CAST(NULL AS INT)) AS c,
  JSON_ARRAY(1, CAST(NULL AS INT) NULL ON NULL) AS d, JSON_ARRAY(JSON_ARRAY(1), JSON_OBJECT('k' VALUE 'v')) AS e,
  JSON_ARRAY(TIMESTAMP '2024-01-02 03:04:05.5') AS f;

-- over a table's column
CREATE TABLE events (payload STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_payloads.csv', 'format' = 'csv',
  'csv.field-delimiter' = '|', 'csv.disable-quote-character' = 'true');
SELECT JSON_VALUE(payload, '$.user.name') AS name,
  JSON_VALUE(payload, 'lax $.amount' RETURNING DOUBLE DEFAULT 0.0 ON EMPTY) AS amount,
  JSON_QUERY(payload, 'lax $.items') AS items, payload IS JSON OBJECT AS obj
FROM events;

-- ERROR ON ERROR raises the path error
SELECT JSON_VALUE('{"a": 1}', 'strict $.b' ERROR ON ERROR);
