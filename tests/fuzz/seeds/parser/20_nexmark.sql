SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra
from bid B
JOIN (
  SELECT MAX(B1.price) AS maxprice, TUMBLE_ROWTIME(B1.dateTime, INTERVAL '10' SECOND) as dateTime
  FROM bid B1
  GROUP BY TUMBLE(B1.dateTime, INTERVAL '10' SECOND)
) B1
ON B.price = B1.maxprice
WHERE B.dateTime BETWEEN B1.dateTime  - INTERVAL '10' SECOND AND B1.dateTime;
INSERT INTO discard_sink
SELECT auction, bidder, 0.908 * price as price, dateTime, extra FROM bid
WHERE MOD(auction, 123) = 0 AND DATE_FORMAT(dateTime, 'yyyy-MM-dd') = '2015-07-15';
