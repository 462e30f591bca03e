-- WHERE without FROM is a syntax error in Flink's grammar.
SELECT 1 WHERE TRUE;
