-- SHOW FUNCTIONS FROM a database that does not exist.
SHOW FUNCTIONS FROM nothing;
