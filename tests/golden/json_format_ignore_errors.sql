-- json.ignore-parse-errors: a line that is not a JSON object is skipped, a field that cannot be
-- converted reads as NULL (Flink's JsonToRowDataConverters), the rest of the row is kept.
CREATE TABLE t (id INT, qty INT) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/json_bad.json', 'format' = 'json',
  'json.ignore-parse-errors' = 'true');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM t;
