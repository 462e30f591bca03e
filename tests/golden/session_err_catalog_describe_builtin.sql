-- The built-in catalog is not in the catalog store: DESCRIBE CATALOG has no metadata for it.
DESCRIBE CATALOG default_catalog;
