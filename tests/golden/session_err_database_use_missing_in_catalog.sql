-- USE catalog.database with a database that does not exist.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
USE c1.nope;
