-- ADD JAR of a file that exists: weir runs no Java code, so it refuses with the reason (Flink adds
-- the jar; docs/user-guide.md, differences). SHOW JARS before shows the session's empty list.
SHOW JARS;
ADD JAR '$DATA/not-really.jar';
