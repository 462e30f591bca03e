-- CREATE TABLE ... LIKE merges the base table's definition (Flink's MergeTableLikeUtil): the base's
-- physical columns first, then the new ones; constraints, partitions, watermarks, generated and
-- metadata columns and options per INCLUDING / EXCLUDING / OVERWRITING (default INCLUDING ALL
-- OVERWRITING OPTIONS).
CREATE TABLE visits (visitor BIGINT, page STRING, at_ts TIMESTAMP(3), seen AS PROCTIME(),
  PRIMARY KEY (visitor) NOT ENFORCED, WATERMARK FOR at_ts AS at_ts - INTERVAL '2' SECOND)
  PARTITIONED BY (page)
  WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-visits', 'format' = 'csv');
-- defaults: everything included, the new path overwrites the old one
CREATE TABLE visits_copy (referrer STRING) WITH ('path' = '/tmp/weir-visits-copy') LIKE visits;
SHOW CREATE TABLE visits_copy;
-- nothing but the physical columns
CREATE TABLE visits_print (extra INT) WITH ('connector' = 'print') LIKE visits (EXCLUDING ALL);
SHOW CREATE TABLE visits_print;
-- a different watermark, no options, no partitions, no generated columns
CREATE TABLE visits_bh (WATERMARK FOR at_ts AS at_ts) WITH ('connector' = 'blackhole')
  LIKE visits (EXCLUDING OPTIONS, EXCLUDING PARTITIONS, OVERWRITING WATERMARKS, EXCLUDING GENERATED);
SHOW CREATE TABLE visits_bh;
-- INCLUDING OPTIONS refuses a key that both define
CREATE TABLE visits_bad WITH ('path' = '/tmp/x') LIKE visits (INCLUDING OPTIONS);
