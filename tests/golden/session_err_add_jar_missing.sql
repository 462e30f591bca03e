-- ADD JAR of a file that does not exist: Flink's FileNotFoundException.
SHOW JARS;
ADD JAR '$TMP/no-such.jar';
