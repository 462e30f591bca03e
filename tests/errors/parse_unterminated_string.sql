-- An unterminated string literal is a lexical error.
SELECT 'abc;
