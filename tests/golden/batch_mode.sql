-- Batch mode prints content-sized columns without the op column.
SET 'execution.runtime-mode' = 'batch';
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE users (
  user_id INT,
  name STRING,
  region STRING,
  active BOOLEAN
) WITH (
  'connector' = 'filesystem',
  'path' = '$DATA/users.csv',
  'format' = 'csv'
);
SELECT user_id, name, region FROM users WHERE active IS NOT FALSE;
SELECT * FROM users WHERE user_id > 1000;
