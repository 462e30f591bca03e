-- A dangling operator at the end of a select item: Calcite reports the operator itself and the
-- two-token sequences its lookahead tried (the operator followed by each token that starts an operand).
SELECT amount * FROM orders;
