-- A prefix NOT with nothing after it: the operator loop fails at AND with the scans only.
SELECT amount FROM orders WHERE NOT amount = 1 AND NOT;
