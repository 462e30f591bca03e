-- The built-in catalog's name is taken too.
CREATE CATALOG default_catalog WITH ('type' = 'generic_in_memory');
