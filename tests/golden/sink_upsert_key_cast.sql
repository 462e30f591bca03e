-- An upsert key stays the upsert key through an injective CAST (Flink 2.3's
-- LogicalTypeCasts.supportsInjectiveCast): a widened integer, an integer as a long enough string;
-- not through a cast that can map two keys to one (INT to DOUBLE, a string too short for an INT),
-- which then needs ON CONFLICT and a SinkMaterializer.
CREATE TABLE clicks (user_id INT, url STRING) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks_users.csv', 'format' = 'csv');
CREATE TABLE by_long (user_id BIGINT, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE by_text (user_id STRING, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE by_double (user_id DOUBLE, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE by_short (user_id VARCHAR(10), n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'blackhole');
EXPLAIN CHANGELOG_MODE INSERT INTO by_long SELECT CAST(user_id AS BIGINT), COUNT(*) FROM clicks GROUP BY user_id;
EXPLAIN CHANGELOG_MODE INSERT INTO by_text SELECT CAST(user_id AS STRING), COUNT(*) FROM clicks GROUP BY user_id;
EXPLAIN CHANGELOG_MODE INSERT INTO by_double SELECT CAST(user_id AS DOUBLE), COUNT(*) FROM clicks GROUP BY user_id ON CONFLICT DO DEDUPLICATE;
EXPLAIN CHANGELOG_MODE INSERT INTO by_short SELECT CAST(user_id AS VARCHAR(10)), COUNT(*) FROM clicks GROUP BY user_id ON CONFLICT DO DEDUPLICATE;
INSERT INTO by_double SELECT CAST(user_id AS DOUBLE), COUNT(*) FROM clicks GROUP BY user_id;
