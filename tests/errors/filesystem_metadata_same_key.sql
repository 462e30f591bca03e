-- two metadata columns of one key: Flink's validation error at CREATE TABLE
CREATE TABLE cast_size (id INT, s STRING, x INT METADATA FROM 'file.size' VIRTUAL, y STRING METADATA FROM 'file.size' VIRTUAL)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/fs_regex/a.csv', 'format' = 'csv');
