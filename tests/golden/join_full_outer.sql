-- A full outer join pads both sides with NULLs.
CREATE TABLE l (k INT, a STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/dir', 'format' = 'csv');
CREATE TABLE users (user_id INT, name STRING, region STRING, active BOOLEAN)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/users.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT l.k, l.a, u.name FROM l FULL OUTER JOIN users u ON l.k + 100 = u.user_id;
