-- DROP FUNCTION of a missing catalog function.
DROP FUNCTION nothing;
