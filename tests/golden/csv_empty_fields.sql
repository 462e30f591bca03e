-- An empty field of a non-string column in Flink's csv format (measured on Flink 2.3): an error
-- unless csv.null-literal says '' is NULL or csv.ignore-parse-errors nulls the field (the row
-- stays); BOOLEAN reads '' as FALSE (Boolean.parseBoolean); STRING reads it as ''.
CREATE TABLE n1 (id INT, n INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/csv_empty_fields.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE n2 (id INT, n INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/csv_empty_fields.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE n3 (id INT, b BOOLEAN, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/csv_empty_fields.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM n1;
SELECT * FROM n2;
SELECT * FROM n3;
