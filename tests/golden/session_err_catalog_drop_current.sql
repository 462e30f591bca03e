-- The current catalog cannot be dropped.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
USE CATALOG c1;
DROP CATALOG c1;
