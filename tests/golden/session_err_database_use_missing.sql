-- USE of a database that does not exist.
USE nope;
