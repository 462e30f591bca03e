-- A JSON table whose ROW columns are read a few fields at a time, through a computed column, a
-- watermark and a view (the shape of the nexmark tables): the fields no query reads hold other
-- JSON values (objects, arrays, numbers, booleans, escapes); every query sees the fields it reads.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'parallelism.default' = '1';

CREATE TABLE events (
    kind INT,
    info ROW<id BIGINT, label VARCHAR, stamp TIMESTAMP(3)>,
    bid ROW<item BIGINT, who VARCHAR, price BIGINT, note VARCHAR, url VARCHAR, stamp TIMESTAMP(3)>,
    ts AS CASE WHEN kind = 1 THEN info.stamp ELSE bid.stamp END,
    WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
    'connector' = 'filesystem',
    'path' = '$DATA/json_nested_events.json',
    'format' = 'json'
);

CREATE VIEW bids AS
SELECT bid.item, bid.who, bid.price, bid.note, bid.url, ts FROM events WHERE kind = 2;

SELECT item, price, ts FROM bids;

SELECT item, COUNT(*) AS n, SUM(price) AS total, window_start, window_end
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY item, window_start, window_end;

SELECT who, note, url FROM bids;

SELECT info.label, bid.price FROM events;
