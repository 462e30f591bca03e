-- -------------------------------------------------------------------------------------------------
-- w2 (weir's, not a Nexmark query): HOP window aggregation over few keys
-- -------------------------------------------------------------------------------------------------
-- Bids and their total price per channel over the last 10 seconds, every second. Few keys and
-- many rows per key and slide: the case slice-shared HOP windows are for (one accumulator per
-- channel and second instead of ten).
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_w2 (
  channel  VARCHAR,
  window_start  TIMESTAMP(3),
  window_end  TIMESTAMP(3),
  num  BIGINT,
  total  BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_w2
SELECT channel, window_start, window_end, count(*), sum(price)
FROM TABLE(
        HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '1' SECOND, INTERVAL '10' SECOND))
GROUP BY channel, window_start, window_end;
