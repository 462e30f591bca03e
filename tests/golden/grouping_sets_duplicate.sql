-- A grouping set written more than once: Calcite computes one aggregate per copy and unions them,
-- GROUP_ID() numbering the copies (0, 1, ...). Each copy's rows appear once per copy.
CREATE TABLE parcels (parcel_id INT, region STRING, mode STRING, kg INT)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/parcels.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
-- streaming: the copies' changelogs interleave (a union of two aggregates)
SELECT region, COUNT(*) AS n, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((region), (region)) HAVING COUNT(*) > 1;
SET 'execution.runtime-mode' = 'batch';
SELECT region, COUNT(*) AS n, SUM(kg) AS kg, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((region), (region), (region)) ORDER BY copy, region;
-- the repeated set is the whole key: (region, mode) twice beside (region)
SELECT region, mode, MAX(kg) AS heaviest, GROUPING(mode) AS gm, GROUP_ID() AS copy
FROM parcels GROUP BY GROUPING SETS ((region, mode), (region), (region, mode)) ORDER BY copy, region, mode;
SELECT region, COUNT(*) AS n, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((region), (region)) ORDER BY copy, region;
SELECT DISTINCT region, COUNT(*) AS n FROM parcels GROUP BY GROUPING SETS ((region), (region)) ORDER BY region;
SELECT mode, SUM(kg) AS kg, GROUP_ID() AS copy FROM parcels GROUP BY GROUPING SETS ((mode), (), (mode), ()) ORDER BY copy, mode;
