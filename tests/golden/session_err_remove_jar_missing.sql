-- REMOVE JAR of a file that does not exist: Flink's FileNotFoundException.
REMOVE JAR '$TMP/no-such.jar';
