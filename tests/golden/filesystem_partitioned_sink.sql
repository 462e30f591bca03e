-- PARTITIONED BY on a filesystem table: each row goes to <path>/k1=v1/k2=v2/part-..., the files
-- hold only the other columns, NULL and '' go to __DEFAULT_PARTITION__, values are path-escaped
-- (':' -> %3A, '/' -> %2F, '=' -> %3D, '%' -> %25); reading the table back takes the keys from the
-- directory names (the default partition reads as NULL).
CREATE TABLE logs (id INT, msg STRING, dt STRING, hm STRING) PARTITIONED BY (dt, hm)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/logs', 'format' = 'csv', 'csv.null-literal' = '');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
SET 'sql-client.execution.result-mode' = 'tableau';
INSERT INTO logs VALUES
  (1, 'a', '2024-01-01', '10:00'),
  (2, 'b', '2024-01-01', '10:01'),
  (3, 'c', '2024-01-02', '10:00'),
  (4, 'd', CAST(NULL AS STRING), '10:00'),
  (5, 'e', '', 'x/y=z%'),
  (6, 'f', '2024-01-01', '10:00');
SELECT * FROM logs;

-- one partition directory read as a plain table: its files hold id and msg only
CREATE TABLE one_dir (id INT, msg STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/logs/dt=2024-01-01/hm=10%3A00', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM one_dir;
CREATE TABLE default_dir (id INT, msg STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/logs/dt=__DEFAULT_PARTITION__', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM default_dir;
CREATE TABLE escaped_dir (id INT, msg STRING)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/logs/dt=__DEFAULT_PARTITION__/hm=x%2Fy%3Dz%25', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM escaped_dir;

-- an INT key before the other columns, and 'partition.default-name'
CREATE TABLE by_k (k INT, v STRING) PARTITIONED BY (k)
  WITH ('connector' = 'filesystem', 'path' = '$TMP/by_k', 'format' = 'csv', 'csv.null-literal' = '', 'partition.default-name' = 'none');
INSERT INTO by_k VALUES (2, 'x'), (CAST(NULL AS INT), 'y'), (10, 'z'), (2, 'w');
SELECT * FROM by_k;
CREATE TABLE k_none (v STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/by_k/k=none', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM k_none;
CREATE TABLE k_two (v STRING) WITH ('connector' = 'filesystem', 'path' = '$TMP/by_k/k=2', 'format' = 'csv', 'csv.null-literal' = '');
SELECT * FROM k_two;
