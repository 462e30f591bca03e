-- DROP DATABASE IF EXISTS still needs the catalog.
DROP DATABASE IF EXISTS nope.d1;
