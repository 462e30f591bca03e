-- A STATE_TTL key must name an input of the hinted join: with an alias, the alias (Flink's
-- QueryHintsResolver error lists every key that names nothing).
CREATE TABLE purchases (purchase_id BIGINT, buyer_id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
CREATE TABLE settlements (purchase_id BIGINT, settle_method STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1');
EXPLAIN SELECT /*+ STATE_TTL('purchases' = '1d', 'se' = '2h', 'x' = '3h') */ pu.buyer_id
FROM purchases pu JOIN settlements se ON pu.purchase_id = se.purchase_id;
