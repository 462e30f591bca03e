-- USE catalog.database with a catalog that does not exist.
USE nope.d1;
