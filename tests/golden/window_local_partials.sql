-- The LocalWindowAggregate of a two-phase window aggregation buffers its rows as Flink's
-- RecordsWindowBuffer does and combines them into partial accumulators only when a watermark
-- fires a buffered slice (or before a checkpoint, or at the end): with the watermark 5 s behind,
-- the rows of the slice [10 s, 20 s) are split into the partial of the rows before the watermark
-- passed 10 s and the partial of those after, and the global aggregate adds the partials. A
-- DOUBLE SUM shows the order of the additions (0.4 + 0.2, not six times 0.1), as in Flink.
CREATE TABLE readings (
  sensor STRING, v DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/sensor_double.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';

-- (no grouping key beside the window: the rows of one window firing come in Flink's timer order)
SELECT window_start, window_end, SUM(v) AS total, AVG(v) AS mean, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(v) AS total, COUNT(*) AS n
FROM TABLE(HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND))
GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(v) AS total
FROM TABLE(CUMULATE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY window_start, window_end;

-- one phase: every row is added to the window's accumulator in order
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT window_start, window_end, SUM(v) AS total, AVG(v) AS mean, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
