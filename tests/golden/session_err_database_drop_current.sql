-- The current database cannot be dropped.
DROP DATABASE default_database;
