-- 'source.path.regex-pattern': only files whose whole path (no scheme) matches are read; every
-- directory is still walked, hidden files ('.', '_') stay out, and a file given as 'path' is
-- filtered too.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
CREATE TABLE all_csv (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = '.*\.csv');
SELECT * FROM all_csv ORDER BY id;
-- the name alone does not match the whole path
CREATE TABLE by_name (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = 'a.csv');
SELECT * FROM by_name;
CREATE TABLE in_sub (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = 'file://$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = '.*/sub/[a-z]+\.csv');
SELECT * FROM in_sub;
-- a pattern with the scheme never matches
CREATE TABLE with_scheme (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = 'file://$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = 'file:.*');
SELECT * FROM with_scheme;
CREATE TABLE one_file (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex/b.txt', 'format' = 'csv', 'source.path.regex-pattern' = '.*\.csv');
SELECT * FROM one_file;
CREATE TABLE not_csv (id INT, s STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv', 'source.path.regex-pattern' = '(?i).*[^V]');
SELECT * FROM not_csv ORDER BY id;
