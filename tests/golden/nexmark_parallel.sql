-- Nexmark at parallelism 2: the events' strings (channel, url, extra, item names) cross the hash
-- exchanges between the two lanes (each lane runs its own generator) into a group aggregate, a
-- Top-N and a regular join; the results are those of parallelism 1 (checked when recorded; batch:
-- final results, summarised so that they are short). The TSan stage runs it too.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.display.max-column-width' = '1000';
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '2';

-- group aggregate keyed by strings (q16's keys), string values carried
SELECT channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, count(*) AS bids,
       count(DISTINCT bidder) AS bidders, MIN(url) AS first_url, MAX(extra) AS last_extra
FROM bid
WHERE channel NOT LIKE 'channel-%'
GROUP BY channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd');

SELECT count(DISTINCT channel) AS channels, count(*) AS bids, SUM(CHAR_LENGTH(url)) AS url_chars,
       SUM(CHAR_LENGTH(extra)) AS extra_chars
FROM bid WHERE channel LIKE 'channel-%';

-- Top-N per auction (q19) whose rows carry the strings, summarised
SELECT count(*) AS top_rows, count(DISTINCT auction) AS auctions, SUM(CHAR_LENGTH(channel)) AS channel_chars,
       SUM(CHAR_LENGTH(url)) AS url_chars, SUM(CHAR_LENGTH(extra)) AS extra_chars, MAX(url) AS max_url
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC, bidder) AS rank_number
  FROM bid)
WHERE rank_number <= 10;

-- a regular join of auctions and bids (q20), strings from both sides, summarised per category
SELECT category, count(*) AS bids, SUM(CHAR_LENGTH(itemName)) AS item_chars,
       SUM(CHAR_LENGTH(B.extra)) AS bid_extra_chars, MAX(itemName) AS max_item, MIN(B.url) AS min_url
FROM auction AS A INNER JOIN bid AS B ON A.id = B.auction
GROUP BY category
ORDER BY category;
