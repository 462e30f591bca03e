-- EXPLAIN PLAN FOR with no statement: the explainable starts.
EXPLAIN PLAN FOR;
