-- With the core module unloaded, SHOW FUNCTIONS lists none and DESCRIBE FUNCTION finds none;
-- LOAD MODULE core brings them back (at the end of the used modules).
SET 'sql-client.execution.result-mode' = 'tableau';
UNLOAD MODULE core;
SHOW FULL MODULES;
SHOW FUNCTIONS;
LOAD MODULE core;
SHOW FULL MODULES;
SHOW FUNCTIONS LIKE 'ABS%';
DESCRIBE FUNCTION `ABS`;
