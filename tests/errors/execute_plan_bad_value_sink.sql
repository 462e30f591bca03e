-- EXECUTE PLAN of a compiled plan (Flink 2.3.0's COMPILE PLAN output with one table option edited):
-- a sink.rolling-policy.file-size that is not a size. The plan's tables are created through the table factories (their options
-- validated, sources first) before any job is built; the message is Flink 2.3.0's EXECUTE PLAN's.
SET 'table.dml-sync' = 'true';
EXECUTE PLAN '$DATA/bad_option_plans/value_sink.json';
