-- A scalar subquery that is a plain SELECT (no aggregate) may yield several rows: Calcite checks it
-- with SINGLE_VALUE, a GroupAggregate (grouped by the correlation keys when correlated) whose
-- second row fails the job with Flink's TableRuntimeException. One row per key: the value; none:
-- NULL (the LEFT join pads it).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE t (a INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/sv_left.csv', 'format' = 'csv');
CREATE TABLE u (a INT, b INT) WITH ('connector' = 'filesystem', 'path' = '$DATA/sv_right.csv', 'format' = 'csv');
CREATE TABLE e (a INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/sv_empty.csv', 'format' = 'csv');
EXPLAIN SELECT a, (SELECT b + 1 FROM u WHERE u.a = 2) AS x FROM t;
EXPLAIN CHANGELOG_MODE SELECT a, (SELECT b FROM u WHERE u.a = t.a) AS x FROM t;
SET 'execution.runtime-mode' = 'batch';
SELECT a, (SELECT b FROM u WHERE u.a = 2) AS x FROM t ORDER BY a;
SELECT a, (SELECT u.a * 100 FROM u WHERE u.b = t.a * 10) AS x FROM t ORDER BY a;
SET 'execution.runtime-mode' = 'streaming';
SELECT a, (SELECT b FROM u WHERE u.a = 1) AS x FROM e;
