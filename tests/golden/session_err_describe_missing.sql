-- DESCRIBE of a table in another catalog that does not exist.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
DESCRIBE c1.`default`.nope;
