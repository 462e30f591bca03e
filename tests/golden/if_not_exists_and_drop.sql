-- CREATE TABLE IF NOT EXISTS, DROP TABLE IF EXISTS.
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
CREATE TABLE IF NOT EXISTS users (x INT) WITH ('connector' = 'datagen');
DESCRIBE users;
DROP TABLE IF EXISTS nope;
DROP TABLE users;
SHOW TABLES;
