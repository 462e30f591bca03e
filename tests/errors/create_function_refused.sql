-- CREATE FUNCTION names a Java class: weir cannot run it and says so.
CREATE TEMPORARY SYSTEM FUNCTION f AS 'com.example.F' LANGUAGE JAVA;
