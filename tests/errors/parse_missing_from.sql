-- A misspelt keyword is a parse error with its position.
SELECT order_id FORM orders;
