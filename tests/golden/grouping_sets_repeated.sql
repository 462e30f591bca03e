-- ROLLUP and CUBE over repeated columns expand into distinct grouping sets, as Calcite expands them:
-- ROLLUP(region, region) is (region), () and CUBE(region, region) the same two sets; a ROLLUP nested
-- in GROUPING SETS likewise.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TEMPORARY VIEW shipments AS
  SELECT * FROM (VALUES (1, 'north', 40), (2, 'north', 15), (3, 'south', 7), (4, 'east', 22))
    AS v(shipment_id, region, kg);
SELECT region, COUNT(*) AS n, SUM(kg) AS kg FROM shipments GROUP BY ROLLUP(region, region);
SELECT region, COUNT(*) AS n, GROUPING(region) AS g FROM shipments GROUP BY CUBE(region, region);
SELECT region, shipment_id > 2 AS late, COUNT(*) AS n
FROM shipments GROUP BY GROUPING SETS (ROLLUP(region, region, shipment_id > 2));
