-- A repeated grouping set that is narrower than the keys of all the sets: its second copy groups
-- by that set alone (the other keys NULL), as SQL defines it. Flink 2.3 groups that copy by all
-- the keys instead, and its execution plan shares one aggregate between equal copies
-- (Reused(reference_id=[1])) (docs/user-guide.md, differences).
CREATE TABLE parcels (parcel_id INT, region STRING, mode STRING, kg INT)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/parcels.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
EXPLAIN SELECT region, COUNT(*) AS n, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((region), (region));
EXPLAIN SELECT region, mode, SUM(kg) AS kg, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((region), (region, mode), (region));
SET 'execution.runtime-mode' = 'batch';
SELECT region, mode, SUM(kg) AS kg, GROUP_ID() AS copy
FROM parcels GROUP BY GROUPING SETS ((region), (region, mode), (region)) ORDER BY copy, region, mode;
SELECT region, mode, COUNT(*) AS n, GROUP_ID() AS copy FROM parcels GROUP BY ROLLUP (region, mode), region ORDER BY copy, region, mode;
