-- Nexmark queries (github.com/nexmark/nexmark @6b3646c, Apache-2.0; see bench/nexmark/queries)
-- on the nexmark source: 60 events at 10 events/s of event time; DESCRIBE, the person and auction views, the stateless queries q0 q1 q10 q21 q22 (streaming).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '1000';
SET 'execution.runtime-mode' = 'streaming';
DESCRIBE datagen;
SELECT * FROM person;
SELECT * FROM auction;

-- q0
SELECT auction, bidder, price, `dateTime`, extra FROM bid;

-- q1
SELECT
    auction,
    bidder,
    0.908 * price as price, -- convert dollar to euro
    `dateTime`,
    extra
FROM bid;

-- q10
SELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm')
FROM bid;

-- q21
SELECT
    auction, bidder, price, channel,
    CASE
        WHEN lower(channel) = 'apple' THEN '0'
        WHEN lower(channel) = 'google' THEN '1'
        WHEN lower(channel) = 'facebook' THEN '2'
        WHEN lower(channel) = 'baidu' THEN '3'
        ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
        END
    AS channel_id FROM bid
    where REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) is not null or
          lower(channel) in ('apple', 'google', 'facebook', 'baidu');

-- q22
SELECT
    auction, bidder, price, channel,
    SPLIT_INDEX(url, '/', 3) as dir1,
    SPLIT_INDEX(url, '/', 4) as dir2,
    SPLIT_INDEX(url, '/', 5) as dir3 FROM bid;
