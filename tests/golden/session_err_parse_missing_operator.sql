-- Two operands without an operator between them.
SELECT id FROM orders WHERE price 10;
