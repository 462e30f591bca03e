-- an unknown metadata key of the filesystem source: Flink's message listing the file.* keys
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE m (id INT, s STRING, x STRING METADATA FROM 'file.nope' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex', 'format' = 'csv');
SELECT * FROM m;
