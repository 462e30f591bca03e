-- table.exec.sink.type-length-enforcer as Flink's ConstraintEnforcer: a source column declared
-- CHAR(3)/VARCHAR(2)/BINARY(2)/VARBINARY(3) can hold values of other lengths (the CSV reader does
-- not cut them); IGNORE (the default) writes them as they are, TRIM_PAD cuts them to the sink
-- column's length (characters, not bytes, for strings) and pads CHAR with spaces and BINARY with
-- zero bytes. ERROR fails the job (tests/errors/sink_type_length_error.sql).
CREATE TABLE src (id INT, c CHAR(3), v VARCHAR(2), b BINARY(2), vb VARBINARY(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/type_lengths.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE snk (id INT, c CHAR(3), v VARCHAR(2), b BINARY(2), vb VARBINARY(3))
  WITH ('connector' = 'print', 'print-identifier' = 'snk');
SET 'table.dml-sync' = 'true';
INSERT INTO snk SELECT * FROM src;
SET 'table.exec.sink.type-length-enforcer' = 'trim_pad';
INSERT INTO snk SELECT * FROM src;
