-- A `quoted name` keeps the statement open across lines; the lexer then rejects the line break in it.
SELECT 1 AS `x;
y`;
