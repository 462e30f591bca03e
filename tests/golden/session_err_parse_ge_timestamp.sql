-- A keyword that starts an operand but is no operand alone after a comparison: Flink's
-- three-token lookahead fails at the operator and lists what it tried after TIMESTAMP.
SELECT amount FROM orders WHERE ts >= TIMESTAMP;
