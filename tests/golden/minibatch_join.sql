-- Mini-batch regular joins as in Flink 2.3 (MiniBatchStreamingJoinOperator): a MiniBatchAssigner
-- on each join input, miniBatch=[true] on the Join, the rows of a batch buffered per input and
-- join key, a retraction (-U/-D) cancelling the equal earlier accumulation (+I/+U) of the same key
-- on the same input, and at the batch boundary the right input's rows joined before the left's,
-- keys in the order of Flink's HashMaps. Every query reads one source twice (a self-join), so
-- that both inputs see the same batch boundaries; the latency is one day, so the end of input
-- is the only boundary. (The plans are checked by tests/flink/plans.py: Flink reuses the
-- source and its assigner, weir reads the source twice.)
CREATE TABLE ev (side STRING, k INT, v STRING)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/mbj_events.csv', 'format' = 'csv');
CREATE TABLE ch (id INT, grp STRING, val INT, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/mbj_changes.json', 'format' = 'debezium-json');
SET 'sql-client.execution.result-mode' = 'tableau';

SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 d';
SET 'table.exec.mini-batch.size' = '1000';

-- inner join, no unique key: the right rows go into state first, each left row then joins them
SELECT a.k, a.v, b.v FROM ev a JOIN ev b ON a.k = b.k AND a.side < b.side;

-- self-join of a Debezium changelog (unique key id): a row inserted and deleted in the batch
-- leaves nothing, an updated one only its last +U
SELECT a.id, a.val, b.id, b.val FROM ch a JOIN ch b ON a.grp = b.grp;

-- left join of the changelog: only the final joined rows, no NULL-padded row and its retraction
SELECT a.id, a.val, b.id, b.val FROM ch a LEFT JOIN ch b ON a.grp = b.grp AND a.id < b.id;

-- a join feeding a group aggregate: one change per group
SELECT a.grp, COUNT(*) AS n, SUM(b.val) AS s FROM ch a JOIN ch b ON a.grp = b.grp GROUP BY a.grp;

-- two parallel subtasks and RocksDB state: the same joined rows (sorted: the subtasks interleave)
SET 'parallelism.default' = '2';
SET 'state.backend.type' = 'rocksdb';
SELECT a.k, a.v, b.v FROM ev a JOIN ev b ON a.k = b.k AND a.side < b.side;
