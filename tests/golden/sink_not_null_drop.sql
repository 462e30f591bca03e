-- NOT NULL columns of a sink are enforced as Flink's ConstraintEnforcer does: with
-- table.exec.sink.not-null-enforcer = DROP (any case) a row with a NULL there is dropped (the -v
-- report counts them: notNullDroppedRecords); the default ERROR fails the job
-- (tests/errors/sink_not_null_error.sql).
CREATE TABLE people (id INT, name STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/not_null_rows.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE named (id INT, name STRING NOT NULL) WITH ('connector' = 'print', 'print-identifier' = 'named');
CREATE TABLE per_name (name STRING NOT NULL, cnt BIGINT NOT NULL, PRIMARY KEY (name) NOT ENFORCED)
  WITH ('connector' = 'print', 'print-identifier' = 'per_name');
SET 'table.dml-sync' = 'true';
SET 'table.exec.sink.not-null-enforcer' = 'drop';
INSERT INTO named SELECT id, name FROM people;
-- every row kind is checked: the group of the NULL name never reaches the sink
INSERT INTO per_name SELECT name, COUNT(*) FROM people GROUP BY name;
-- a column that is NULL in every row: nothing is written
INSERT INTO named SELECT id, CAST(NULL AS STRING) FROM people;
