-- A table that is not in an existing database.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
SELECT * FROM c1.`default`.nope;
