-- A trailing comma in ORDER BY: the comma itself is reported.
SELECT id FROM orders ORDER BY id,;
