-- USE CATALOG of a catalog that does not exist.
USE CATALOG nope;
