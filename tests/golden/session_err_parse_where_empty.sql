-- WHERE without a condition: the tokens that may start an expression.
SELECT id FROM orders WHERE;
