-- Only INSERT inside a statement set.
BEGIN STATEMENT SET;
SELECT 1;
