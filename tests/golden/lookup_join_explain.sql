-- Lookup joins (JOIN dim FOR SYSTEM_TIME AS OF o.proc_time) against a jdbc table: the plans and
-- COMPILE PLAN node equal Flink 2.3's with flink-connector-jdbc 4.0 (measured), the probe side
-- pruned to the columns read; EXPLAIN does not connect. Then Flink's error for a RIGHT join (the
-- other errors and the joins themselves, against PostgreSQL: tests/jdbc/lookup.sh).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE o (id INT, k INT, tag STRING, proc_time AS PROCTIME())
  WITH ('connector' = 'filesystem', 'path' = '$DATA/orders.csv', 'format' = 'csv');
CREATE TABLE dim (id INT, name STRING, v INT, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://127.0.0.1:1/weir', 'table-name' = 'dim');
EXPLAIN JSON_EXECUTION_PLAN SELECT o.id, d.name, d.v FROM o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d
  ON o.k = d.id AND o.id < d.v;
EXPLAIN SELECT o.id, o.k, d.name, d.v FROM o JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;
EXPLAIN SELECT o.id, d.name FROM o JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d
  ON o.k = d.id AND o.id < d.v AND d.name <> 'x' WHERE d.v > 100;
SELECT o.id, d.name FROM o RIGHT JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS d ON o.k = d.id;
