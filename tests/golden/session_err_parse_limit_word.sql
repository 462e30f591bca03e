-- LIMIT takes a number.
SELECT id FROM orders LIMIT ten;
