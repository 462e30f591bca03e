-- SET accepts any key, as Flink does (Flink 2.3 prints only "Execute statement succeeded."), but
-- weir warns when a key of Flink's table / execution configuration changes nothing in weir: a key
-- weir does not know, or one it only reports (REST, COMPILE PLAN). Applied keys and keys outside
-- those namespaces get no warning. The session goes on as before.
SET 'table.exec.resource.default-parallelism' = '3';
SET 'table.optimizer.join-reorder-enabled' = 'true';
SET 'execution.checkpointing.unaligned.enabled' = 'true';
SET 'table.exec.deduplicate.mini-batch.compact-changes-enabled' = 'true';
SET 'table.exec.state.ttl' = '1 h';
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'my.own.key' = 'x';
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, s);
