-- REMOVE JAR of a path without the .jar suffix (an existing file): Flink's ValidationException.
REMOVE JAR '$DATA/clicks.csv';
