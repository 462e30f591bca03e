-- TIMESTAMP_LTZ values render in table.local-time-zone.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'Asia/Shanghai';
SELECT TO_TIMESTAMP_LTZ(0, 3) AS shanghai;
SET 'table.local-time-zone' = 'America/New_York';
SELECT TO_TIMESTAMP_LTZ(1700000000000, 3) AS new_york;
