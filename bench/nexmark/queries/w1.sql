-- -------------------------------------------------------------------------------------------------
-- w1 (weir's, not a Nexmark query): CUMULATE window aggregation
-- -------------------------------------------------------------------------------------------------
-- Bids and the highest price per auction so far in each 10-second period, every 2 seconds.
-- Nexmark has no CUMULATE query; this one measures the slice-shared CUMULATE window aggregate
-- (one accumulator per auction and step, the steps merged into a running accumulator).
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_w1 (
  auction  BIGINT,
  window_start  TIMESTAMP(3),
  window_end  TIMESTAMP(3),
  num  BIGINT,
  max_price  BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_w1
SELECT auction, window_start, window_end, count(*), max(price)
FROM TABLE(
        CUMULATE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
