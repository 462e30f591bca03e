-- SELECT without a select list.
SELECT FROM orders;
