-- table.exec.sink.not-null-enforcer takes ERROR or DROP; another value fails the INSERT with Flink's message.
CREATE TABLE people (id INT, name STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/not_null_rows.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE named (id INT, name STRING NOT NULL) WITH ('connector' = 'print', 'print-identifier' = 'named');
SET 'table.dml-sync' = 'true';
SET 'table.exec.sink.not-null-enforcer' = 'foo';
INSERT INTO named SELECT id, name FROM people;
