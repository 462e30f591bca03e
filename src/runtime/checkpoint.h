/*
 * checkpoint.h — checkpoints, savepoints and restore of a job's lanes (the runtime side of fault
 * tolerance; the storage side is state/: wstate_snapshot / wstate_restore, wtimers_snapshot).
 *
 * Contract: the job driver (job.c) owns barriers and lanes; this module owns everything else:
 * the options (execution.checkpointing.*, state.checkpoints.*, execution.savepoint.*), the
 * checkpoint coordinator (when to trigger, acknowledgements, completion, retention), the files of
 * a checkpoint and the restore. A checkpoint of a job is a directory laid out as Flink's:
 *   <dir>/<job id>/chk-<n>/            one per completed checkpoint
 *       _metadata                      written last (a directory without it is incomplete)
 *       lane-<s>                       subtask s: source positions, watermarks, sink commit state
 *       op-<node>-<k>-<s>/             keyed state of the k-th backend of exec node <node>,
 *                                      subtask s (a wstate_snapshot directory, by key-group range)
 *       op-<node>-<k>-<s>.timers       its k-th timer service (wtimers_snapshot)
 *   <dir>/<job id>/shared/             SST files of incremental RocksDB checkpoints
 *   <dir>/<job id>/taskowned/          (empty, as Flink's)
 * Savepoints are the same directory under the savepoint dir, named savepoint-<job id prefix>-<random>.
 * Every file is checksummed (CRC32C). job.c describes a lane to this module through a WCkptLane
 * view built on demand; operators register their backends and timer services in the lane's
 * WExecRegistry (exec/operator.h). Depends on state/, exec/ (operator framework), plan/ (exec
 * node ids and kinds), connectors/ (source positions, sink commits), common/.
 */
#ifndef WEIR_RUNTIME_CHECKPOINT_H
#define WEIR_RUNTIME_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>
#include "../plan/plan.h"
#include "../exec/operator.h"
#include "../connectors/connector.h"
#include "../common/strbuf.h"

typedef struct WCkpt WCkpt;

/* Figures of one checkpoint or savepoint, kept for `-v` reports and the REST server. */
typedef struct WCkptStats {
    int64_t id;
    bool savepoint;
    bool completed;                 /* false: failed or aborted (failure says why) */
    bool incremental;
    int64_t trigger_ms;             /* wall clock at trigger */
    int64_t duration_ms;            /* trigger to _metadata */
    int64_t full_bytes;             /* checkpointed state size: every file it references */
    int64_t incremental_bytes;      /* bytes this checkpoint wrote */
    int64_t alignment_us;           /* longest barrier alignment over the subtasks */
    int64_t sync_us;                /* longest snapshot writing over the subtasks */
    char path[512];                 /* its directory */
    char failure[256];
} WCkptStats;

/* ---- a lane as job.c shows it (built on demand; pointers stay owned by job.c) ---- */
typedef struct WCkptSource {
    const WRel *rel;                /* WR_SCAN or WR_VALUES */
    WSource *src;                   /* NULL for VALUES */
    bool *done;
    int *values_next;               /* VALUES: next row */
} WCkptSource;

typedef struct WCkptRecv {
    const WRel *rel;                /* the exchange */
    int nfrom;
    int64_t *wm;                    /* per sender */
} WCkptRecv;

typedef struct WCkptLane {
    int index;
    WExecRegistry *registry;
    int nsrc;
    WCkptSource *srcs;
    int nops;                       /* every built node, inputs first */
    const WRel **rels;
    WOperator **ops;
    int nrecv;
    WCkptRecv *recv;
    int nsinks;                     /* table sinks */
    const WRel **sink_rels;
    WSink **sinks;
} WCkptLane;

/* Options of the job. NULL (and no error) without a configuration; without checkpointing, a
   restore or a final savepoint the coordinator idles (wckpt_live false) until a savepoint is
   requested. NULL with err set on invalid options or an unreadable restore path
   (the _metadata is read and checked here). job_id: 32 hex digits, or NULL for
   `$internal.pipeline.job-id` / a random one. */
WCkpt *wckpt_new(const WOptions *config, const char *job_id, int parallelism, WError *err);
void wckpt_free(WCkpt *c);
/* The job's parallelism.default when some of its lanes run a source's or sink's own parallelism
   (written to _metadata; a restore at another one is refused, checkpoint_restore.c). */
void wckpt_set_job_parallelism(WCkpt *c, int job_parallelism);
/* The max parallelism to run with: a restored checkpoint's unless the configuration sets one
   (a different one is refused here, as Flink does). */
bool wckpt_max_parallelism(WCkpt *c, int configured, int dflt, int *out, WError *err);
bool wckpt_enabled(const WCkpt *c);             /* periodic checkpoints */
bool wckpt_exactly_once(const WCkpt *c);
/* Sinks commit only at checkpoints (set their `transactional`). */
bool wckpt_transactional(const WCkpt *c);
const char *wckpt_job_id(const WCkpt *c);

/* Tag the registry entries created since the last call with the exec node id. */
void wckpt_registry_tag(WExecRegistry *r, int node_id);

/* Restore every lane from execution.savepoint.path (no-op without one). Everything is checked
   before anything is restored; sinks publish the files the checkpoint covered last. sim_now
   (may be NULL) receives the simulated processing time of the checkpoint (0 if none). */
bool wckpt_restore(WCkpt *c, WCkptLane *lanes, int nlanes, int64_t *sim_now, WError *err);

/* ---- periodic checkpoints ---- */
/* Called by the triggering lane (0) at a chunk boundary: a new checkpoint id when one is due
   (interval and min pause passed, none in progress, no lane has finished), else 0. now_ms is
   the job's processing time (simulated clock in tests). */
int64_t wckpt_poll_trigger(WCkpt *c, int64_t now_ms);
/* How long the triggering lane may sleep before wckpt_poll_trigger has something to do: the
   milliseconds until the next periodic trigger is due (interval, min pause) or the pending
   checkpoint expires; 0 when a savepoint request waits; -1 when nothing is timed (the lane sleeps
   until woken: a request, a message, a failure). now_ms as for wckpt_poll_trigger. */
int64_t wckpt_wait_ms(WCkpt *c, int64_t now_ms);
/* Checkpoints that expire (execution.checkpointing.timeout) are declined: wckpt_pending stops naming
   them, so a lane aligning for one drops it. True (err set to Flink's message) once more of them
   failed in a row than execution.checkpointing.tolerable-failed-checkpoints allows: the job fails. */
bool wckpt_job_failure(WCkpt *c, WError *err);
/* The checkpoint lanes should take now (0 = none). */
int64_t wckpt_pending(WCkpt *c);
/* Write lane L's part of checkpoint id and acknowledge it; the last acknowledgement writes
   _metadata and completes the checkpoint. sim_now: the simulated clock (0 = none). */
bool wckpt_lane_snapshot(WCkpt *c, WCkptLane *L, int64_t id, int64_t align_us, int64_t sim_now,
                         WError *err);
/* Publish lane L's sink files covered by completed checkpoints (call from L's thread). */
bool wckpt_lane_commit(WCkpt *c, WCkptLane *L, int64_t *committed, WError *err);
/* A lane wants to end: false when a checkpoint it has not taken is pending (take it first);
   true marks it ended (no checkpoint is triggered any more). */
bool wckpt_lane_may_end(WCkpt *c, int lane, int64_t lane_done);
/* weir.exec.savepoint-at-end with weir.exec.savepoint-at-end.drain = false: when every source has
   read its input the job stops with a savepoint and without draining (no end of input, no final
   watermark; windows and timers stay in the savepoint), as STOP JOB ... WITH SAVEPOINT does to an
   unbounded source. job.c asks with wckpt_request_stop_at_end once all sources are exhausted (a
   stop-with-savepoint request into the savepoint-at-end directory; 0 with err set on failure). */
bool wckpt_stop_at_end(const WCkpt *c);
int64_t wckpt_request_stop_at_end(WCkpt *c, WError *err);
/* The job ended: ok = every input ended. Takes the final checkpoint (or the savepoint of
   weir.exec.savepoint-at-end) over the quiescent lanes, publishes every sink's files and applies
   the retention policy. */
bool wckpt_finish(WCkpt *c, WCkptLane *lanes, int nlanes, bool ok, int64_t sim_now, WError *err);

/* ---- savepoints on request (REST /jobs/:jid/savepoints, /stop; STOP JOB ... WITH SAVEPOINT) ----
   Thread-safe. A request is queued; the next trigger poll of lane 0 starts it as a savepoint
   (aligned barriers like a checkpoint) into <target_dir>/savepoint-<job id prefix>-<random>,
   the directory chosen once at the trigger. Requests are numbered from 1. */
typedef enum WCkptRequestState { WCKPT_REQ_PENDING, WCKPT_REQ_COMPLETED, WCKPT_REQ_FAILED } WCkptRequestState;
typedef struct WCkptRequest {
    WCkptRequestState state;
    int64_t id;                     /* checkpoint id (0 = not triggered yet) */
    bool stop, drain;
    char path[512];                 /* the savepoint directory (once triggered) */
    char failure[256];              /* why it failed */
} WCkptRequest;
/* 0 with err set when refused (no target directory). */
int64_t wckpt_request_savepoint(WCkpt *c, const char *target_dir, bool stop, bool drain, WError *err);
bool wckpt_request_status(const WCkpt *c, int64_t req, WCkptRequest *out);
/* For job.c after it snapshot checkpoint id: 0 = not a stop-with-savepoint, 1 = its savepoint is
   still pending, 2 = completed: stop now (sources stop, no final watermark, no final checkpoint),
   3 = completed with drain: end the sources as at end of input, -1 = it failed (resume). */
int wckpt_stop_state(WCkpt *c, int64_t id);
/* The coordinator takes checkpoints, restored, or had a savepoint request (else it idles and the
   job shows no checkpoint figures). */
bool wckpt_live(const WCkpt *c);

/* Test hook (environment variable) WEIR_TEST_KILL_AT = 'tick:<n>': SIGKILL at the n-th call (job.c calls it at
   each chunk boundary of lane 0); 'before-metadata:<n>', 'during-metadata:<n>' (half of _metadata
   written) and 'after-metadata:<n>' kill when checkpoint n completes. */
void wckpt_tick(WCkpt *c);

/* ---- figures ---- */
int wckpt_stats_count(const WCkpt *c);
bool wckpt_stats_get(const WCkpt *c, int i, WCkptStats *out);
/* "Checkpoint n: ..." lines for -v reports. */
void wckpt_report(const WCkpt *c, WStrBuf *out);

#endif
