-- Joins whose output is projected: each side's records keep only the columns read above the join
-- (and its keys and the condition's), so bids that differ only in an unread column share one
-- record. Retractions of such bids (Debezium deletes and updates) must still retract one joined
-- row each; outer joins pad and un-pad as before; a condition reads columns the projection drops.
CREATE TABLE bids (id INT, item INT, price INT, note STRING, channel STRING) WITH (
  'connector' = 'filesystem', 'path' = '$DATA/dbz_lots.json', 'format' = 'debezium-json');
CREATE TABLE items (item INT, name STRING, descr STRING, channel STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/lot_items.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';
SELECT b.price, i.name FROM bids b JOIN items i ON b.item = i.item;
SELECT b.item, b.price, i.name FROM bids b LEFT JOIN items i ON b.item = i.item;
SELECT i.name, b.price FROM items i FULL JOIN bids b ON b.item = i.item AND b.channel = i.channel;
SELECT i.name FROM items i WHERE EXISTS (SELECT 1 FROM bids b WHERE b.item = i.item AND b.note LIKE '%desk%');
SELECT COUNT(*) AS n, SUM(b.price) AS total, COUNT(DISTINCT i.name) AS names
FROM bids b JOIN items i ON b.item = i.item;
