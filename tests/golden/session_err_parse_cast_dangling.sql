-- CAST without its parenthesis after an operator: the scan's steps name ">=" "CAST" "(".
SELECT amount * CAST FROM orders;
