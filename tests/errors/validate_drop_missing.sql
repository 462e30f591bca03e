-- DROP TABLE of a table that does not exist.
DROP TABLE nope;
