/*
 * fs_compact.h — auto-compaction of the filesystem sink's files ('auto-compaction' = 'true',
 * 'compaction.file-size'), as Flink's streaming file sink does it with its compact-coordinator and
 * compact-operator (private to src/connectors and to runtime/fs_compact_flow.c, whose operators
 * run the coordinator's and the compact-operator's halves).
 *
 * Contract: one WFsCompact is shared by every subtask of one sink (it lives in the job's
 * WSinkShared of that sink; callers hold that WSinkShared's mu around every call but
 * wfs_compact_get, which takes it). A writer subtask publishes its
 * rolled files hidden as `.uncompacted-part-...` and hands each to wfs_compact_add_file with the
 * checkpoint that closed it; wfs_compact_end_checkpoint(id) says the subtask committed every file
 * up to checkpoint id (Flink's EndCheckpoint). Once every subtask reported a checkpoint, the files
 * of all checkpoints up to the lowest reported one are coordinated as Flink's CompactCoordinator
 * does: per partition directory, sorted by path, bin-packed by size up to the target size (a file
 * larger than the target is a unit of its own); each unit is compacted as Flink's CompactOperator
 * does: into `compacted-<name of its first file without .uncompacted->` beside it, written hidden
 * (`.compacted-...inprogress`) and renamed once complete; a target that exists already (a unit
 * compacted before a crash) is kept as it is, so a repeated coordination of the same checkpoint
 * gives the same files. The compacted inputs are deleted after the next checkpoint completes (a
 * restore from the checkpoint that listed them still finds them), or at once when every subtask
 * has ended. The row formats weir writes (csv, json lines) are compacted by concatenation: Flink's
 * compaction reads and re-encodes the rows with the same encoder, which gives the same bytes.
 * Restore: wfs_compact_restore_file / wfs_compact_restore_end replay the files the checkpoint's
 * writer states list (with the old parallelism): once every old subtask's state was replayed,
 * those files are coordinated as their checkpoint was.
 * Depends on common/ only.
 */
#ifndef WEIR_CONNECTORS_FS_COMPACT_H
#define WEIR_CONNECTORS_FS_COMPACT_H

#include <stdbool.h>
#include <stdint.h>
#include "connector.h"
#include "../common/error.h"
#include "../common/strbuf.h"

typedef struct WFsCompact WFsCompact;

#define WFS_UNCOMPACTED_PREFIX ".uncompacted-"
#define WFS_COMPACTED_PREFIX "compacted-"

/* The compactor of the sink whose subtasks share sh (created by the first caller): ntasks writer
   subtasks, units up to target_size bytes. */
WFsCompact *wfs_compact_get(WSinkShared *sh, int ntasks, int64_t target_size);
/* The compactor of sh, NULL before a writer made it (caller holds sh->mu). */
WFsCompact *wfs_compact_of(WSinkShared *sh);

/* A writer's file (its visible-to-the-compactor `.uncompacted-` path) closed at checkpoint ckpt
   (INT64_MAX: at the end of the input without checkpoints). */
void wfs_compact_add_file(WFsCompact *c, int64_t ckpt, const char *path);
/* Subtask task committed every file up to checkpoint ckpt; ended: its input ended and nothing of it
   is pending. Coordinates and compacts what every subtask has committed. */
bool wfs_compact_end_checkpoint(WFsCompact *c, int64_t ckpt, int task, bool ended, WError *err);

/* The operators' halves (runtime/fs_compact_flow.c), what wfs_compact_end_checkpoint does in one
   step. A unit of compaction: files of one directory, compacted into one. */
typedef struct WFsUnit { int n; char **paths; } WFsUnit;
/* The coordinator hears a writer's EndCheckpoint (the InputFiles came first, through
   wfs_compact_add_file): once every subtask reported a checkpoint after the last coordinated one,
   the expired inputs of earlier ones are deleted and the files up to the lowest reported
   checkpoint are packed into *units (*nunits; wfs_compact_units_free), *coordinated = that
   checkpoint (0: nothing coordinated now). */
bool wfs_compact_coordinate(WFsCompact *c, int64_t ckpt, int task, WFsUnit **units, int *nunits,
                            int64_t *coordinated, WError *err);
void wfs_compact_units_free(WFsUnit *u, int n);
/* A compact-operator compacts one unit of checkpoint ckpt (its inputs expire after the next
   checkpoint completes). */
bool wfs_compact_unit(WFsCompact *c, const WFsUnit *u, int64_t ckpt, WError *err);
/* Every compact-operator ended: the expired inputs are deleted now. */
void wfs_compact_finish(WFsCompact *c);

/* The compacted inputs not deleted yet, one "#expired\t<path>\n" line each (a checkpoint keeps
   them: a restore deletes them, their compacted files exist). */
void wfs_compact_expired_state(const WFsCompact *c, WStrBuf *out);

/* The files the coordinator received but did not coordinate yet (published, waiting for a
   writer's EndCheckpoint), one "#pending\t<path>\n" line each: Flink's CompactCoordinator keeps
   them in its state; weir's writers list them in theirs (a restore coordinates them again,
   wfs_compact_restore_file, once even when several writers listed them). */
void wfs_compact_pending_state(const WFsCompact *c, WStrBuf *out);

/* Restore: a file of old subtask task's state at checkpoint ckpt, and the end of that state
   (old_ntasks: the parallelism the checkpoint was taken with). */
void wfs_compact_restore_file(WFsCompact *c, const char *path);
bool wfs_compact_restore_end(WFsCompact *c, int task, int old_ntasks, WError *err);
/* The part counters of the restored writers: a restored job's writers number their files after
   the highest (as Flink's bucket state keeps its part counter), so that no new file takes the name
   of a file compacted before the crash. */
void wfs_compact_restore_counter(WFsCompact *c, int counter);
int wfs_compact_restored_counter(const WFsCompact *c);

#endif
