/*
 * fs_compact_flow.h — the operators after a compacting filesystem sink's writers, as Flink's
 * streaming file sink chains them: streaming-writer -> compact-coordinator -> compact-operator ->
 * [PartitionCommitter] -> end: Writer, with real rows on every edge (Flink's CompactMessages).
 *
 * Contract: one flow per sink node and job, shared by the lanes (it lives in the sink's
 * WSinkShared.runtime, made by the first lane that builds the sink; every call holds the
 * WSinkShared's mu, so the operators run under it, on the thread of the writer whose message
 * drives them). A writer subtask's committed files and checkpoint ends reach it through
 * WSink.message (wfs_flow_attach_writer installs it) and leave the writer's operator as rows
 * (InputFile, EndCheckpoint) into the coordinator (one subtask, one input per writer), which keeps
 * the files (in the shared compactor, connectors/fs_compact.h) and, once every writer ended a
 * checkpoint, emits its CompactionUnits and an EndCompaction, broadcast to the compact-operators
 * (one per writer subtask); compact-operator i compacts the units whose id modulo their number is
 * i when it receives them, and emits a PartitionCommitInfo per EndCompaction and one at its end of
 * input; those go to the PartitionCommitter (one subtask), which commits the partitions named in
 * them (connectors/fs_partition_commit.h: its trigger and policy) once every compact-operator sent
 * its info of a checkpoint, or straight to `end: Writer`. Without compaction the writers send one
 * PartitionCommitInfo per commit (the partitions they wrote up to it) straight to the
 * PartitionCommitter (or `end: Writer`), which commits them the same way; writers commit nothing.
 * The partition-time trigger reads the watermark the committer had at its snapshot of the
 * checkpoint: a writer's barrier reaches the flow as WSM_SNAPSHOT (with its watermark), and once
 * every writer's did, the committer snapshots with the lowest of them. A writer's end of input reaches the
 * coordinator only after its last EndCheckpoint (with checkpoints, the final checkpoint's commit).
 * Records in/out of each operator then count Flink's: writer out = files + EndCheckpoints,
 * coordinator out = units + EndCompactions (counted once, received by every compact-operator),
 * compact-operator out = EndCompactions received + 1 at its end.
 * The operators keep no checkpointed state of their own: the coordinator's files not coordinated
 * yet, the compacted inputs not deleted yet and the writers' pending files are in the writers'
 * checkpoint state (connectors/fs_sink.c), which a restore replays into the shared compactor; the
 * committer's pending partitions go ("#commit" lines) into the state of the writer whose barrier
 * completed its snapshot, and come back to it through WSM_RESTORE.
 * The operators carry the flow's own execution context (its error is copied into the failing
 * writer's). Depends on exec/operator.h, connectors/ (connector.h, fs_compact.h).
 */
#ifndef WEIR_RUNTIME_FS_COMPACT_FLOW_H
#define WEIR_RUNTIME_FS_COMPACT_FLOW_H

#include <stdbool.h>
#include "../exec/operator.h"
#include "../connectors/connector.h"

typedef struct WFsFlow WFsFlow;

/* The flow of the sink sharing sh (made by the first caller, with a context like ctx): nwriters
   writer subtasks, compacting or not (then no coordinator nor compact-operators: the writers'
   PartitionCommitInfo rows go straight to the PartitionCommitter or `end: Writer`), with a
   PartitionCommitter or not. */
WFsFlow *wfs_flow_get(WSinkShared *sh, const WExecCtx *ctx, int nwriters, bool compaction, bool committer);
/* Its operators, for the lane that registers them (wfs_flow_registered: the job frees them
   then; the flow frees those never registered). */
WOperator *wfs_flow_coordinator(WFsFlow *f);  /* NULL without compaction */
WOperator *wfs_flow_compactor(WFsFlow *f, int subtask);
WOperator *wfs_flow_committer(WFsFlow *f);      /* NULL: none */
WOperator *wfs_flow_end(WFsFlow *f);
void wfs_flow_registered(WFsFlow *f, WOperator *op);
/* Writer subtask `subtask` (its operator and its sink): its messages become its rows to the
   coordinator. */
void wfs_flow_attach_writer(WFsFlow *f, WOperator *writer, WSink *sink, int subtask, const WOptions *options);
/* The writer's input watermark advanced: it goes on to the operators after it (the
   PartitionCommitter's partition-time trigger reads the lowest). */
void wfs_flow_writer_watermark(WFsFlow *f, int subtask, int64_t wm);
/* The writer's input ended (its sink finished): the coordinator hears of it after its last
   EndCheckpoint. */
void wfs_flow_writer_end(WFsFlow *f, int subtask);

#endif
