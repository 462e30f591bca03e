-- DESCRIBE of a table that does not exist.
DESCRIBE nope;
