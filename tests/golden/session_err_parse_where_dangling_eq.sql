-- A comparison without its right operand in WHERE.
SELECT id FROM orders WHERE status =;
