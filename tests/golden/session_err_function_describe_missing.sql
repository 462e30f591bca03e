-- DESCRIBE FUNCTION of a missing function.
DESCRIBE FUNCTION nothing;
