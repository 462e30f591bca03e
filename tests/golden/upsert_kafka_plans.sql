-- upsert-kafka plans, equal to Flink 2.3's (measured with its Kafka SQL connector): ChangelogNormalize
-- after the source where an operator needs the full changelog (an aggregation, a filter evaluated
-- inside it, a print sink), none where nothing needs UPDATE_BEFORE (an upsert sink keyed by the
-- source's key, an EXPLAINed SELECT). EXPLAIN connects to no broker.
CREATE TABLE t (id INT, name STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_in', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
CREATE TABLE uk (id INT, name STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u_out', 'properties.bootstrap.servers' = '127.0.0.1:9', 'key.format' = 'csv', 'value.format' = 'json');
CREATE TABLE pr (id INT, name STRING, amount INT) WITH ('connector' = 'print');
EXPLAIN SELECT name, SUM(amount) AS s, COUNT(*) AS c FROM t GROUP BY name;
EXPLAIN SELECT * FROM t WHERE amount > 5;
EXPLAIN CHANGELOG_MODE SELECT id, amount FROM t;
EXPLAIN SELECT * FROM t;
EXPLAIN INSERT INTO uk SELECT id, UPPER(name), amount + 1 FROM t;
EXPLAIN INSERT INTO pr SELECT * FROM t;
