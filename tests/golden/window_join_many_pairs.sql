-- A window join whose window holds more (left, right) pairs than one evaluation of the condition
-- takes (160 x 7 = 1,120 pairs; the engine evaluates them a chunk at a time, a chunk's end falling
-- inside a left record's pairs): every kind, the output in Flink's left-major order of one window.
-- The join has no key besides the window (Nexmark q5's shape: one parallel instance joins).
CREATE TABLE counts (name STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/wj_counts.csv', 'format' = 'csv');
CREATE TABLE marks (name STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/wj_marks.csv', 'format' = 'csv');
CREATE VIEW c AS SELECT * FROM TABLE(TUMBLE(TABLE counts, DESCRIPTOR(ts), INTERVAL '10' SECOND));
CREATE VIEW m AS SELECT * FROM TABLE(TUMBLE(TABLE marks, DESCRIPTOR(ts), INTERVAL '10' SECOND));
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT c.name, c.v, m.name AS mark, m.v AS mv FROM c JOIN m
  ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.v >= m.v AND c.v < m.v + 20;
SELECT c.name, c.v, m.name AS mark FROM c LEFT JOIN m
  ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.v >= m.v AND c.v < m.v + 20;
SELECT c.v, m.name AS mark, m.v AS mv FROM c FULL JOIN m
  ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.v >= m.v + 150 AND m.name <> 'z';
SELECT c.name, c.v FROM c WHERE c.v > 100 AND EXISTS (SELECT * FROM m
  WHERE c.window_start = m.window_start AND c.window_end = m.window_end AND c.v >= m.v AND c.v < m.v + 5);
SELECT c.name, c.v FROM c WHERE NOT EXISTS (SELECT * FROM m
  WHERE c.window_start = m.window_start AND c.window_end = m.window_end AND c.v >= m.v AND c.v < m.v + 20);
