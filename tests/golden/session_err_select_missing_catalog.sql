-- A table in a catalog that does not exist.
SELECT * FROM nope.d1.t;
