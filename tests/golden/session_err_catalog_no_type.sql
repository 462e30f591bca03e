-- CREATE CATALOG needs a 'type'.
CREATE CATALOG c1 WITH ('default-database' = 'x');
