-- SHOW DATABASES FROM a catalog that does not exist.
SHOW DATABASES FROM nope;
