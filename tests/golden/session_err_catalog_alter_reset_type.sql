-- ALTER CATALOG RESET cannot remove the type.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
ALTER CATALOG c1 RESET ('type');
