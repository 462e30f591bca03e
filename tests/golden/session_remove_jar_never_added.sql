-- REMOVE JAR of an existing jar that was never added: nothing to remove, the statement succeeds.
SET 'sql-client.execution.result-mode' = 'tableau';
REMOVE JAR '$DATA/clicks.csv';
SHOW JARS;
