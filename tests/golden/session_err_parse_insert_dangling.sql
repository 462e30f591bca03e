-- A dangling operator in INSERT ... SELECT.
INSERT INTO sink SELECT id || FROM orders;
