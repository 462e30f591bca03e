-- Field delimiter, quote character, comments and a null literal.
CREATE TABLE t (id INT, s STRING, x STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/pipes.txt', 'format' = 'csv',
  'csv.field-delimiter' = '|', 'csv.quote-character' = '''', 'csv.allow-comments' = 'true',
  'csv.null-literal' = 'NA');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT id, s, x, x IS NULL AS x_null FROM t;
