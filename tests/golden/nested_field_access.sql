-- Field access into ROW values through compound names, resolved as Calcite does: `alias.col.field`
-- when the first part names a table in scope, else `col.field`; nested rows go deeper, and a field
-- of the null-padded side of an outer join is NULL (in batch mode: the rows, not the race of two
-- streaming sources).
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TEMPORARY VIEW parcels AS
  SELECT parcel_id, CAST(dest AS ROW<city STRING, pos ROW<lat DECIMAL(5, 2), lon DECIMAL(5, 2)>>) AS dest
  FROM (VALUES (1, ROW('Oslo', ROW(59.91, 10.75))), (2, ROW('Lima', ROW(-12.05, -77.04)))) AS t(parcel_id, dest);
CREATE TEMPORARY VIEW scans AS SELECT * FROM (VALUES (1, 'depot'), (3, 'lost')) AS s(parcel_id, site);
SELECT dest.city, parcels.dest.pos.lat FROM parcels;
SET 'execution.runtime-mode' = 'batch';
SELECT s.site, p.dest.city, p.dest.pos.lon AS lon
FROM scans AS s LEFT JOIN parcels AS p ON s.parcel_id = p.parcel_id;
-- a field the row does not have
SELECT p.dest.pos.lon, p.dest.EXPR$0 FROM parcels AS p;
