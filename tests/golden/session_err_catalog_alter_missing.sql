-- ALTER CATALOG of a catalog that does not exist.
ALTER CATALOG nope SET ('default-database' = 'x');
