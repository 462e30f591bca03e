-- A table in a database that does not exist.
SELECT * FROM nope.t;
