-- A statement weir parses but does not run yet says so.
SHOW PARTITIONS t;
