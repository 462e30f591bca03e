-- a 'source.path.regex-pattern' that is no Java regex fails the query with Java's message
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE t (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = 'a[b');
SELECT * FROM t;
