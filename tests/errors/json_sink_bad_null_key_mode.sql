-- json.map-null-key.mode must be FAIL, DROP or LITERAL (Flink lists its HashSet's order).
CREATE TABLE s (id INT) WITH ('connector' = 'filesystem', 'path' = '$TMP/s', 'format' = 'json',
  'json.map-null-key.mode' = 'KEEP');
INSERT INTO s VALUES (1);
