-- An option generic_in_memory does not have.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory', 'colour' = 'blue');
