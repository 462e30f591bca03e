INSERT INTO sink /*+ OPTIONS('sink.parallelism' = '2') */ PARTITION (dt = '2020-01-01', h = 10) (a, b)
SELECT a, b FROM src;
INSERT OVERWRITE t VALUES (1, 'a'), (2, 'b');
