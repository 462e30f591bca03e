-- A statement weir parses but does not run yet says so.
CREATE FUNCTION f AS 'com.example.F';
