-- ALTER DATABASE of a database that does not exist.
ALTER DATABASE nope SET ('k' = 'v');
