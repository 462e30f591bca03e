-- SHOW TABLES FROM a database that does not exist.
SHOW TABLES FROM nope;
