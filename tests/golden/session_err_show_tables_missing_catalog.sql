-- SHOW TABLES FROM a catalog that does not exist.
SHOW TABLES FROM nope.d1;
