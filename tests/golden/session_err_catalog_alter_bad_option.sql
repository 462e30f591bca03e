-- ALTER CATALOG SET of an option the catalog type does not have.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
DESCRIBE CATALOG EXTENDED c1;
ALTER CATALOG c1 SET ('colour' = 'blue');
