-- INSERT ... PARTITION (k = 'v') into a print sink: Flink's PrintSink prints the static partition
-- after the print-identifier as :k=v items in the table's partition key order (not the clause's),
-- and alone when there is no identifier; the partition columns take the clause's values.
SET 'table.dml-sync' = 'true';
CREATE TABLE s1 (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1', 'fields.a.kind' = 'sequence', 'fields.a.start' = '7', 'fields.a.end' = '7');
CREATE TABLE k1 (a INT, b BIGINT, c STRING) PARTITIONED BY (b, c) WITH ('connector' = 'print', 'print-identifier' = 'k1');
CREATE TABLE k2 (a INT, b BIGINT, c STRING) PARTITIONED BY (b, c) WITH ('connector' = 'print');
CREATE TABLE k3 (a INT, b BIGINT, c STRING) PARTITIONED BY (b, c) WITH ('connector' = 'print', 'print-identifier' = 'k3');
INSERT INTO k1 PARTITION (c = 'x', b = 2) SELECT a FROM s1;
INSERT INTO k2 PARTITION (b = 3, c = 'y') SELECT a FROM s1;
INSERT INTO k3 PARTITION (c = 'z') SELECT a, CAST(a AS BIGINT) FROM s1;
