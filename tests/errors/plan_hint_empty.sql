-- STATE_TTL needs key-value options.
CREATE TABLE purchases (purchase_id BIGINT, buyer_id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
CREATE TABLE kv (k BIGINT, v BIGINT) WITH ('connector' = 'blackhole');
COMPILE PLAN 'file://$TMP/empty.json' FOR INSERT INTO kv SELECT /*+ STATE_TTL() */ buyer_id, COUNT(*) FROM purchases GROUP BY buyer_id;
