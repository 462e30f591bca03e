-- ADD JAR of an existing file without the .jar suffix: Flink's ValidationException.
ADD JAR '$DATA/clicks.csv';
