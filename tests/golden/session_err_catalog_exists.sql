-- A catalog name that is taken.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
