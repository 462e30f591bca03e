-- An unclosed parenthesis.
SELECT (1 + 2 FROM t;
