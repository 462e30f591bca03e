-- CREATE DATABASE in a catalog that does not exist.
CREATE DATABASE nope.d1;
