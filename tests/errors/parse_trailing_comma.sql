-- A trailing comma in the select list.
SELECT 1, FROM orders;
