-- A trailing AND before ORDER BY.
SELECT id FROM orders WHERE id > 1 AND ORDER BY id;
