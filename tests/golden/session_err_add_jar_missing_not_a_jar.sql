-- ADD JAR of a missing file without the .jar suffix: the file is looked for first.
ADD JAR '$TMP/udfs.zip';
