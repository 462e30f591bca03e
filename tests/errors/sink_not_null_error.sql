-- table.exec.sink.not-null-enforcer = ERROR (the default): a NULL reaching a NOT NULL sink column
-- fails the job with Flink's message naming the column; the rows before it were written.
CREATE TABLE people (id INT, name STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/not_null_rows.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE named (id INT, name STRING NOT NULL) WITH ('connector' = 'print', 'print-identifier' = 'named');
SET 'table.dml-sync' = 'true';
INSERT INTO named SELECT id, name FROM people;
