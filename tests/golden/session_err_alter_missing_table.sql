-- ALTER TABLE of a table that does not exist.
ALTER TABLE nope ADD x INT;
