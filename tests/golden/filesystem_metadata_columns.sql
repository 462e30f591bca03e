-- Metadata columns of the filesystem source, declared as Flink declares them: file.path and
-- file.name (STRING NOT NULL), file.size (BIGINT NOT NULL), file.modification-time
-- (TIMESTAMP_LTZ(3) NOT NULL), VIRTUAL or not, FROM a key or named by it, cast to the declared type.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
CREATE TABLE m (
  id INT,
  s STRING,
  p STRING METADATA FROM 'file.path' VIRTUAL,
  n STRING METADATA FROM 'file.name',
  sz BIGINT METADATA FROM 'file.size' VIRTUAL,
  mt TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time' VIRTUAL
) WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv');
DESCRIBE m;
SELECT id, s, SUBSTR(p, POSITION('fs_regex' IN p)) AS tail, p LIKE '/%' AS absolute, n, sz, mt > TO_TIMESTAMP_LTZ(0, 3) AS recent
  FROM m ORDER BY id;
SELECT n, id FROM m WHERE id > 1 ORDER BY id;
SELECT n, COUNT(*) AS c, MAX(sz) AS size FROM m GROUP BY n ORDER BY n;
CREATE TABLE by_key (id INT, s STRING, `file.name` STRING METADATA VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv');
SELECT * FROM by_key ORDER BY id;
CREATE TABLE cast_size (id INT, s STRING, x INT METADATA FROM 'file.size' VIRTUAL, y STRING METADATA FROM 'file.name' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex/a.csv', 'format' = 'csv');
SELECT * FROM cast_size;
-- the plan: the scan reads the metadata keys after the physical columns (metadata=[...]) and a
-- projection casts them to the declared types
EXPLAIN SELECT n, id FROM m WHERE id > 1;
