-- A trailing comma in GROUP BY.
SELECT status, COUNT(*) FROM orders GROUP BY status,;
