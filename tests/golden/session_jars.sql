-- SHOW JARS of a session that added none (weir adds no jar: it runs no Java code).
SET 'sql-client.execution.result-mode' = 'tableau';
SHOW JARS;
