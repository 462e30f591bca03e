-- ADD JAR of a relative path that does not exist: the path as written.
ADD JAR 'no-such-folder/udfs.jar';
