-- table.exec.sink.upsert-materialize takes NONE, AUTO or FORCE (any case); another value fails the statement
-- with Flink's enum error instead of being taken as a default.
CREATE TABLE accounts (id INT, owner STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'blackhole');
SET 'table.exec.sink.upsert-materialize' = 'force';
INSERT INTO accounts VALUES (1, 'ann');
SET 'table.exec.sink.upsert-materialize' = 'always';
INSERT INTO accounts VALUES (2, 'bo');
