-- An unclosed call.
SELECT SUM(amount FROM orders;
