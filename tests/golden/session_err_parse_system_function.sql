-- A system function must be temporary: Flink's parser says so.
CREATE SYSTEM FUNCTION f AS 'com.example.F';
