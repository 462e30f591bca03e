-- LIKE without its pattern.
SELECT id FROM orders WHERE name LIKE;
