/*
 * fs_partition_commit.h — the partition commit of the filesystem sink, as Flink's
 * sink.partition-commit.* and partition.time-extractor.* options define it (private to
 * src/connectors).
 *
 * Contract: wfs_commit_config reads and validates the options with Flink's messages (a 'metastore'
 * policy is refused as Flink refuses it for a filesystem table; 'custom' policies and extractors,
 * which need Java classes, are refused as not supported by weir). A tracker then follows the
 * partitions a sink subtask writes: wfs_commit_touch when a row goes to a partition,
 * wfs_commit_checkpoint at each checkpoint (the watermark it saw), wfs_commit_ready after a
 * checkpoint completed (the trigger: process-time = creation + delay has passed; partition-time =
 * the checkpoint's watermark is past the partition's time + delay) or at the end of the input
 * (every partition), and the policy (the success file) is applied to each committed partition.
 * Under the runtime the writers only name their partitions (wfs_commit_take, into their
 * PartitionCommitInfo) and the PartitionCommitter's tracker commits them (wfs_commit_add,
 * wfs_commit_snapshot: the watermark it had at its snapshot of a checkpoint, wfs_commit_ready; its
 * pending partitions checkpointed with wfs_commit_state).
 * Depends on connector.h (WOptEnum), types/ (time zones, timestamp parsing), common/.
 */
#ifndef WEIR_CONNECTORS_FS_PARTITION_COMMIT_H
#define WEIR_CONNECTORS_FS_PARTITION_COMMIT_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/options.h"
#include "../common/error.h"
#include "../types/datetime.h"
#include "../common/strbuf.h"
#include "connector.h"

typedef struct WFsCommitConfig {
    bool enabled;               /* sink.partition-commit.policy.kind is set */
    bool success_file;          /* the policy writes the success file */
    char *success_name;         /* sink.partition-commit.success-file.name (default _SUCCESS) */
    bool partition_time;        /* trigger partition-time (else process-time) */
    int64_t delay_ms;           /* sink.partition-commit.delay */
    WTimeZone *wm_tz;           /* sink.partition-commit.watermark-time-zone (NULL = UTC) */
    char *ts_pattern;           /* partition.time-extractor.timestamp-pattern (NULL = first value) */
    char *ts_formatter;         /* partition.time-extractor.timestamp-formatter (NULL = default) */
} WFsCommitConfig;

/* Read and check the options; false + Flink's message (or weir's "not supported") on error. */
bool wfs_commit_config(WFsCommitConfig *c, const WOptions *o, WError *err);
void wfs_commit_config_free(WFsCommitConfig *c);
/* sink.partition-commit.trigger's enum (PartitionCommitTriggerType), for the inventory. */
extern const WOptEnum wfs_commit_trigger_enum;

/* The time of a partition (epoch ms in the watermark time zone) from its keys and values
   (unescaped), as Flink's DefaultPartTimeExtractor: the pattern with $key replaced by the values
   (no pattern: the first value), parsed with the formatter (default yyyy-MM-dd HH:mm:ss, a date
   alone is its midnight). false + the parse error when the text is not such a time. */
bool wfs_partition_time(const WFsCommitConfig *c, int nkeys, const char *const *keys, const char *const *values,
                        int64_t *out_ms, WError *err);

/* One subtask's partitions waiting for their commit. */
typedef struct WFsCommitTracker WFsCommitTracker;
WFsCommitTracker *wfs_commit_tracker_new(const WFsCommitConfig *c);
void wfs_commit_tracker_free(WFsCommitTracker *t);
/* A row went to partition `rel` (its path below the table, k1=v1/k2=v2) in directory dir. */
void wfs_commit_touch(WFsCommitTracker *t, const char *rel, const char *dir);
/* Checkpoint ckpt_id is taken now (processing time now_ms) with watermark wm: the partitions
   touched since the last one belong to it. */
void wfs_commit_checkpoint(WFsCommitTracker *t, int64_t ckpt_id, int64_t wm, int64_t now_ms);
/* Checkpoint ckpt_id completed (end_of_input: the input ended, commit everything): apply the
   policy to every partition the trigger lets through. */
bool wfs_commit_ready(WFsCommitTracker *t, int64_t ckpt_id, bool end_of_input, int64_t now_ms, WError *err);
/* The writer's side without a tracker of its own commit (the PartitionCommitter commits):
   append the directories of the partitions written up to checkpoint ckpt_id (all: every one),
   one a line, to out, and forget them (Flink's StreamingFileWriter's PartitionCommitInfo). */
void wfs_commit_take(WFsCommitTracker *t, int64_t ckpt_id, bool all, WStrBuf *out);
/* The PartitionCommitter's side (Flink's PartitionCommitTrigger): a PartitionCommitInfo named
   the partition (addPartition: pending from processing time now_ms on; a partition pending
   already keeps its time); wfs_commit_snapshot records the watermark the committer had at its
   snapshot of checkpoint ckpt_id (the partition-time trigger of wfs_commit_ready(ckpt_id) reads
   it: without it nothing is committable); wfs_commit_state appends the pending partitions as
   "#commit\t<created ms>\t<dir>" lines (wfs_commit_add restores them). */
void wfs_commit_add(WFsCommitTracker *t, const char *rel, const char *dir, int64_t now_ms);
void wfs_commit_snapshot(WFsCommitTracker *t, int64_t ckpt_id, int64_t wm);
void wfs_commit_state(const WFsCommitTracker *t, WStrBuf *out);
/* Write the success file into dir (batch jobs: every partition at the end). */
bool wfs_commit_partition_dir(const WFsCommitConfig *c, const char *dir, WError *err);

#endif
