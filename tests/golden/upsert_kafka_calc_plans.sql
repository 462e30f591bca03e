-- upsert-kafka: a Calc above ChangelogNormalize, as Flink 2.3 plans it (measured with its Kafka SQL
-- connector): the key-only conjuncts of its condition and a projection to the columns it reads go
-- under the hash exchange (PushCalcPastChangelogNormalizeRule), the rest of the condition into the
-- normalize; when nothing needs UPDATE_BEFORE the normalize is dropped and the Calc left above it
-- keeps the normalize's INSERT ([I,UA,D] over the source's [UA,D]); a filter on the key alone keeps
-- an UPDATE_AFTER-only stream correct, so it needs no normalize. EXPLAIN connects to no broker.
CREATE TABLE t (id INT, name STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_in', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
CREATE TABLE uk (id INT, name STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_out', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
CREATE TABLE uk2 (id INT, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_out', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
CREATE TABLE bh (id INT, name STRING, amount INT) WITH ('connector' = 'blackhole');
EXPLAIN CHANGELOG_MODE SELECT id, UPPER(name), amount + 1 FROM t;
EXPLAIN CHANGELOG_MODE INSERT INTO uk SELECT id, name, amount FROM t;
EXPLAIN CHANGELOG_MODE INSERT INTO uk SELECT id, name, amount + 1 FROM t;
EXPLAIN CHANGELOG_MODE INSERT INTO uk2 SELECT id, amount FROM t;
EXPLAIN CHANGELOG_MODE INSERT INTO uk SELECT id, name, amount FROM t WHERE id > 3;
EXPLAIN CHANGELOG_MODE INSERT INTO bh SELECT id, name, amount + 1 FROM t;
EXPLAIN CHANGELOG_MODE INSERT INTO uk SELECT id, name, amount + 1 FROM t WHERE amount > 5;
EXPLAIN CHANGELOG_MODE SELECT id, amount + 1 FROM t WHERE amount > 5;
EXPLAIN CHANGELOG_MODE SELECT name, COUNT(*) FROM (SELECT id, name, amount + 1 AS a FROM t) GROUP BY name;
EXPLAIN CHANGELOG_MODE SELECT id, CAST(amount AS BIGINT) FROM t;
EXPLAIN CHANGELOG_MODE SELECT id, name FROM t WHERE amount + 1 > 3;
EXPLAIN CHANGELOG_MODE SELECT name, id, amount, amount FROM t;
EXPLAIN CHANGELOG_MODE SELECT id + 1, name FROM t WHERE id > 2 AND amount < 9;
EXPLAIN CHANGELOG_MODE SELECT * FROM (SELECT id, amount + 1 AS a FROM t) WHERE a > 3;
