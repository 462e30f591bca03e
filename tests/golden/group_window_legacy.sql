-- Legacy group windows (GROUP BY TUMBLE / HOP / SESSION): Flink's GroupWindowAggregate in EXPLAIN
-- (with and without TUMBLE_START & co, i.e. with and without named window properties), their
-- results, and COMPILE PLAN + EXECUTE PLAN round trips through Flink's
-- stream-exec-group-window-aggregate_1 JSON (window / namedWindowProperties) giving the same rows.
CREATE TABLE clicks (
  username STRING, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$DATA/clicks.csv', 'format' = 'csv');
CREATE TABLE tumble_out (username STRING, ws TIMESTAMP(3), we TIMESTAMP(3), n BIGINT, urls BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'tumble');
CREATE TABLE hop_out (username STRING, n BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'hop');
CREATE TABLE session_out (username STRING, ss TIMESTAMP(3), se TIMESTAMP(3), n BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'session');
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';

-- TUMBLE with TUMBLE_START / TUMBLE_END: named properties w$start, w$end, w$rowtime, w$proctime
EXPLAIN INSERT INTO tumble_out
SELECT username, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_END(ts, INTERVAL '10' SECOND),
       COUNT(*), COUNT(DISTINCT url)
FROM clicks GROUP BY username, TUMBLE(ts, INTERVAL '10' SECOND);
INSERT INTO tumble_out
SELECT username, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_END(ts, INTERVAL '10' SECOND),
       COUNT(*), COUNT(DISTINCT url)
FROM clicks GROUP BY username, TUMBLE(ts, INTERVAL '10' SECOND);
COMPILE PLAN 'file://$TMP/tumble.json' FOR INSERT INTO tumble_out
SELECT username, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_END(ts, INTERVAL '10' SECOND),
       COUNT(*), COUNT(DISTINCT url)
FROM clicks GROUP BY username, TUMBLE(ts, INTERVAL '10' SECOND);
EXECUTE PLAN 'file://$TMP/tumble.json';

-- HOP without window properties: the aggregate emits only its keys and aggregates
EXPLAIN INSERT INTO hop_out
SELECT username, COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), username;
INSERT INTO hop_out
SELECT username, COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), username;
COMPILE PLAN 'file://$TMP/hop.json' FOR INSERT INTO hop_out
SELECT username, COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), username;
EXECUTE PLAN 'file://$TMP/hop.json';

-- SESSION with SESSION_START / SESSION_END
EXPLAIN INSERT INTO session_out
SELECT username, SESSION_START(ts, INTERVAL '5' SECOND), SESSION_END(ts, INTERVAL '5' SECOND), COUNT(*)
FROM clicks GROUP BY username, SESSION(ts, INTERVAL '5' SECOND);
INSERT INTO session_out
SELECT username, SESSION_START(ts, INTERVAL '5' SECOND), SESSION_END(ts, INTERVAL '5' SECOND), COUNT(*)
FROM clicks GROUP BY username, SESSION(ts, INTERVAL '5' SECOND);
COMPILE PLAN 'file://$TMP/session.json' FOR INSERT INTO session_out
SELECT username, SESSION_START(ts, INTERVAL '5' SECOND), SESSION_END(ts, INTERVAL '5' SECOND), COUNT(*)
FROM clicks GROUP BY username, SESSION(ts, INTERVAL '5' SECOND);
EXECUTE PLAN 'file://$TMP/session.json';

-- SESSION without window properties, a compiled plan with no namedWindowProperties
COMPILE PLAN 'file://$TMP/session2.json' FOR INSERT INTO hop_out
SELECT username, COUNT(*) FROM clicks GROUP BY username, SESSION(ts, INTERVAL '5' SECOND);
EXECUTE PLAN 'file://$TMP/session2.json';
