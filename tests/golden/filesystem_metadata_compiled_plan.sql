-- A compiled plan keeps the metadata columns a scan reads (ReadingMetadata): executing it writes
-- the file names as the query does.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
CREATE TABLE m (id INT, s STRING, n STRING METADATA FROM 'file.name' VIRTUAL, sz BIGINT METADATA FROM 'file.size')
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv');
CREATE TABLE o (id INT, n STRING, sz BIGINT) WITH ('connector' = 'filesystem', 'path' = '$TMP/o', 'format' = 'csv');
COMPILE PLAN '$TMP/plan.json' FOR INSERT INTO o SELECT id, n, sz FROM m WHERE id > 1;
EXECUTE PLAN '$TMP/plan.json';
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM o ORDER BY id;
