-- A DROP of no known kind: the statement choice's tokens in token order, then FUNCTION, which
-- Flink's grammar decides by a lookahead scan (listed last).
DROP orders;
