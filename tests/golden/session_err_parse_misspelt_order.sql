-- A misspelt keyword after a complete condition.
SELECT id FROM orders WHERE id > 1 ORDR BY id;
