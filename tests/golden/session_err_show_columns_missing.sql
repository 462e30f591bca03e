-- SHOW COLUMNS of a table that does not exist.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
SHOW COLUMNS FROM c1.`default`.nope;
