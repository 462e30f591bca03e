/*
 * job.h — a running job built from an exec graph (the finalised plan), and its driver.
 *
 * Contract: wjob_build turns one or more plan roots (sinks) into operators wired as the plan
 * says, opening every source and sink through the connectors (validating their options). The
 * job owns all operators, sources and sinks. wjob_run drives the sources round-robin, chunk by
 * chunk, until every bounded source ended (then the final watermark and end-of-input flow down)
 * or the job is cancelled or fails; the error, if any, is in the WError given at build time.
 * Metrics per operator are kept for reports. Depends on plan/, exec/, connectors/, expr/, types/.
 */
#ifndef WEIR_RUNTIME_JOB_H
#define WEIR_RUNTIME_JOB_H

#include <stdbool.h>
#include <stdio.h>
#include "../plan/plan.h"
#include "../exec/operator.h"
#include "../common/strbuf.h"
#include "../common/proc_clock.h"

typedef struct WJob WJob;

/* Where a collect sink (SELECT to the client) delivers rows. Return false to cancel. */
typedef struct WCollect {
    void *ctx;
    bool (*rows)(void *ctx, const WChunk *c);
} WCollect;

typedef struct WJobEnv {
    const WOptions *config;
    const WCastCtx *cast;
    FILE *print_out;            /* print sinks */
    WCollect collect;           /* collect sinks */
    WError *err;                /* unused: build errors go to the plan context, run errors to wjob_error */
    const char *job_id;         /* 32 hex digits (checkpoint directories); NULL = generated */
    WProcClock *proc_clock;     /* processing time from the driver (a MANUAL clock that outlives the job);
                                   NULL = the wall clock, or weir.exec.simulated-clock.step */
} WJobEnv;

WJob *wjob_build(WPlanCtx *p, WRel **roots, int nroots, const WJobEnv *env);

bool wjob_run(WJob *job);
/* Why the job failed (set when wjob_run returned false). */
const WError *wjob_error(const WJob *job);
void wjob_cancel(WJob *job);
void wjob_free(WJob *job);
/* Per-operator metrics, one line each (name, rows in/out, late records dropped, state). */
void wjob_report(const WJob *job, WStrBuf *out);
/* Insight (exec/insight.h, job_insight.c): the report lines of built node i (hot key, late rows,
   unbounded state growth), only when there is something to act on. */
void wjob_insight_report(const WJob *job, int built_index, WStrBuf *out);
/* Some source of the job is unbounded. */
bool wjob_unbounded(const WJob *job);
/* weir.insight.hot-key-share: the share of an operator's rows from which one key is reported as
   hot (default 0.2). */
double wjob_hot_key_threshold(const WOptions *config);
/* Rows skipped by sources that ignore parse errors, summed. */
int64_t wjob_rows_skipped(const WJob *job);

/* Read-only view of a built job (REST server): the exec-graph nodes it built, in build order
   (inputs before consumers), each with the operator built for it. The WRel lives in the plan's
   arena. Reading operator counters while the job runs in another thread gives approximate values. */
int wjob_node_count(const WJob *job);
const WRel *wjob_node_rel(const WJob *job, int i);
const WOperator *wjob_node_op(const WJob *job, int i);
/* The job graph the job was built from (vertices.h; NULL for a job without sinks): every lane
   built one operator per stream operator of it. wjob_stream_op_built gives the node index (for
   wjob_node_op / wjob_node_subtask_op) of stream operator k, -1 when the runtime built none. */
struct WJobGraph;
const struct WJobGraph *wjob_graph(const WJob *job);
int wjob_stream_op_built(const WJob *job, int k);
/* The stream operator node i implements, -1 for the runtime's plumbing (Union merge, receiver). */
int wjob_node_stream_op(const WJob *job, int i);
/* Parallel subtasks (parallelism.default): every node has one operator per subtask. */
int wjob_parallelism(const WJob *job);
const WOperator *wjob_node_subtask_op(const WJob *job, int i, int subtask);
/* The sender in lane `subtask` of the hash exchange in front of input `input` of exec node i
   (insight's exchange sketch); NULL when that input has no exchange of its own (one lane, a
   forward edge). */
const WOperator *wjob_node_input_sender(const WJob *job, int i, int input, int subtask);

/* Checkpoints of the job (runtime/checkpoint.h: wckpt_stats_count / wckpt_stats_get are safe
   while the job runs); NULL when it takes none. */
struct WCkpt;
const struct WCkpt *wjob_checkpoints(const WJob *job);

/* Savepoints on demand (thread-safe, any thread while the job runs; runtime/checkpoint.h).
   The next trigger poll starts a savepoint into <target_dir>/savepoint-<job id prefix>-<random>.
   stop_after: the job ends once it completed (stop-with-savepoint: sources stop; drain: they end
   as at the end of their input, so the final watermark flows). Returns the request number (>= 1)
   for wjob_savepoint_status, 0 with err set when refused. */
struct WCkptRequest;
int64_t wjob_trigger_savepoint(WJob *job, const char *target_dir, bool stop_after, bool drain, WError *err);
bool wjob_savepoint_status(const WJob *job, int64_t request, struct WCkptRequest *out);
/* A stop-with-savepoint ended the job (it then finished). */
bool wjob_stopped(const WJob *job);

#endif
