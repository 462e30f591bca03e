-- DROP TEMPORARY FUNCTION of a missing temporary catalog function.
DROP TEMPORARY FUNCTION nothing;
