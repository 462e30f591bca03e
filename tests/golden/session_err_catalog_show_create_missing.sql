-- SHOW CREATE CATALOG of a catalog that does not exist.
SHOW CREATE CATALOG nope;
