-- INSERT INTO a table in a database that does not exist.
CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');
INSERT INTO c1.nope.t SELECT 1;
