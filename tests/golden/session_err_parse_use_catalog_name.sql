-- USE CATALOG is the catalog form: a name must follow.
USE CATALOG;
