-- table.exec.sink.type-length-enforcer = ERROR: a CHAR/BINARY value of another length, or a
-- VARCHAR/VARBINARY value longer than the sink column's, fails the job with Flink's message.
CREATE TABLE src (id INT, c CHAR(3), v VARCHAR(2), b BINARY(2), vb VARBINARY(3))
  WITH ('connector' = 'filesystem', 'path' = '$DATA/type_lengths.csv', 'format' = 'csv', 'csv.null-literal' = '');
CREATE TABLE snk (id INT, c CHAR(3), v VARCHAR(2), b BINARY(2), vb VARBINARY(3))
  WITH ('connector' = 'print', 'print-identifier' = 'snk');
SET 'table.dml-sync' = 'true';
SET 'table.exec.sink.type-length-enforcer' = 'ERROR';
INSERT INTO snk SELECT id, c, v, b, vb FROM src WHERE id = 3;
