/*
 * operator.h — the push-based operator interface every exec operator implements.
 *
 * Contract: an operator receives changelog chunks (process), watermarks per input (the framework
 * keeps the minimum over inputs and calls `watermark` when it advances) and end-of-input (after
 * every input ended, with a final Long.MAX watermark first, as Flink does for bounded inputs). It
 * emits chunks and watermarks to its outputs synchronously via wop_emit / wop_emit_watermark; a
 * chunk is only valid during the call (a receiver copies what it keeps). Operators report errors
 * by setting ctx->err (the job then stops) and keep their own metrics (rows in/out, late rows,
 * state sizes). Depends on expr/, types/, common/.
 */
#ifndef WEIR_EXEC_OPERATOR_H
#define WEIR_EXEC_OPERATOR_H

#include <stdbool.h>
#include <stdint.h>
#include "../expr/expr.h"
#include "../state/state.h"
#include "../state/timers.h"
#include "../types/chunk.h"
#include "../common/options.h"
#include "../common/error.h"

#define WWM_MIN INT64_MIN
#define WWM_MAX INT64_MAX

typedef struct WOperator WOperator;
struct WInsightSnap;

/* Checkpoint registration (additive): every keyed-state backend and timer service an operator
   creates through wexec_new_backend / wexec_new_timers is recorded in the context's registry
   (when the runtime gave one), so that a checkpoint snapshots them all without operator-specific
   code. The runtime sets node_id (the exec node, -1 until then) after building the operator; the
   operator still owns and frees what it created. */
typedef struct WExecStateEntry {
    int node_id;
    const char *name;               /* operator name given at creation (not owned) */
    WStateBackend *backend;         /* exactly one of backend / timers is set */
    WTimerService *timers;
} WExecStateEntry;

typedef struct WExecRegistry {
    int n, cap;
    WExecStateEntry *items;
} WExecRegistry;

/* Job-wide execution context shared by all operators of a job. */
typedef struct WExecCtx {
    WError *err;
    WCastCtx cast;
    const WOptions *config;
    int64_t start_ms;               /* job start (wall clock, ms) */
    bool cancelled;                 /* set from other threads: wexec_cancel / wexec_cancelled */
    int chunk_rows;                 /* preferred chunk size */
    int max_parallelism;            /* key groups (pipeline.max-parallelism or Flink's default) */
    WClockFn clock;                 /* processing-time clock for TTL and proctime (NULL = wall) */
    void *clock_ctx;
    /* state backend choice for wexec_new_backend; NULL = the configuration's
       (state.backend.type / state.backend, state.backend.rocksdb.localdir) */
    const char *state_backend_type; /* "hashmap" | "rocksdb" */
    const char *state_local_dir;    /* RocksDB files; NULL = config, else $TMPDIR or /tmp */
    WExecRegistry *registry;        /* checkpointing: backends and timers created (may be NULL) */
    /* time accounting of the thread running these operators (wop_time_*): the operator whose code
       runs now (NULL: the runtime's own work or waiting) and when it was last charged (ns) */
    struct WOperator *timed_op;
    int64_t timed_mark_ns;
} WExecCtx;

/* A keyed-state backend for one operator instance, as the job configures it
   (state.backend.type); the operator owns and frees it. Never NULL: when the configuration is
   invalid or RocksDB cannot start, ctx->err is set and a heap backend is returned. */
WStateBackend *wexec_new_backend(WExecCtx *ctx, const char *operator_name);
/* A timer service for one operator instance (wtimers_new), registered for checkpoints like
   wexec_new_backend's backends; the operator owns and frees it. */
WTimerService *wexec_new_timers(WExecCtx *ctx, const char *operator_name);
/* Cancel the job this context runs (any thread); whether it was cancelled. */
static inline void wexec_cancel(WExecCtx *ctx) { __atomic_store_n(&ctx->cancelled, true, __ATOMIC_RELEASE); }
static inline bool wexec_cancelled(const WExecCtx *ctx) { return __atomic_load_n(&ctx->cancelled, __ATOMIC_ACQUIRE); }
/* Processing time now (ms) from the job clock. */
int64_t wexec_now(const WExecCtx *ctx);

/* Typed metrics of an operator: the sizes of its keyed states and its named counters and gauges
   (Flink's names where Flink has the metric: ttlExpiredRecords, numLateRecordsDropped, ...),
   filled by the thread that runs it (WOpOps.metrics, on a zeroed WOpMetrics). The runtime
   publishes a copy that other threads read (wop_read_metrics); the job report and the REST
   layer format them. Names longer than their field are cut. An operator with more states than
   WOP_METRICS_STATES shows the rest summed in a last line named WOP_METRICS_OTHER_STATES (so that
   the totals stay whole); its values are fixed by its code and fit WOP_METRICS_VALUES (asserted). */
#define WOP_METRICS_STATES 8
#define WOP_METRICS_VALUES 16
#define WOP_METRICS_OTHER_STATES "other-states"
typedef struct WOpMetrics {
    int nstates, nvalues;
    struct WOpMetricsState { char name[64]; int64_t entries, bytes; } states[WOP_METRICS_STATES];
    struct { char name[48]; int64_t value; } values[WOP_METRICS_VALUES];
} WOpMetrics;
void wop_metrics_state(WOpMetrics *m, const char *name, int64_t entries, int64_t bytes);
void wop_metrics_states(WOpMetrics *m, const WStateBackend *b);     /* every state of b */
/* a time-driven operator's lines: every state of b, then `timers` (the timers registered) */
void wop_metrics_timed(WOpMetrics *m, const WStateBackend *b, const WTimerService *timers);
/* an aggregate's one state line: the entries of its state `name`, the bytes of every state of b
   (the accumulators and their data views) */
void wop_metrics_agg_state(WOpMetrics *m, const WStateBackend *b, const char *name);
void wop_metrics_value(WOpMetrics *m, const char *name, int64_t value);
/* "<state>.entries=<n> <state>.bytes=<n> ... <name>=<value> ...", the states first */
void wop_metrics_format(const WOpMetrics *m, char *buf, size_t bufsz);

typedef struct WOpOps {
    void (*process)(WOperator *op, int input, const WChunk *in);
    void (*watermark)(WOperator *op, int64_t wm);   /* combined watermark advanced; default: forward */
    void (*end_input)(WOperator *op);               /* all inputs ended; default: forward end */
    void (*idle)(WOperator *op, bool idle);         /* every input idle / one active again; default: forward */
    void (*destroy)(WOperator *op);
    /* Fill m (zeroed) with the operator's state sizes and counters (WOpMetrics); optional. Runs on
       the thread that runs op (reading a state backend is only safe there). */
    void (*metrics)(WOperator *op, WOpMetrics *m);
    /* Processing-time timer: the runtime calls it between chunks (the MiniBatchAssigner); optional. */
    void (*tick)(WOperator *op);
    /* Mini-batch of a two-input operator (WMB_JOIN, minibatch.h): buffer rows [from, from+n) of
       input's chunk; process what is buffered. Optional. */
    void (*bundle_add)(WOperator *op, int input, const WChunk *in, int from, int n);
    void (*bundle_flush)(WOperator *op);
    /* Insight (insight.h): add the operator's own figures to the snapshot being published (the
       WatermarkAssigner's splits); optional, called by the running thread. */
    void (*insight)(WOperator *op, struct WInsightSnap *s);
    /* Flink's prepareSnapshotPreBarrier: what the operator keeps outside its keyed state written
       there before the lane's state is snapshotted (GroupAggregate's cached accumulators);
       optional, called by the running thread between chunks. */
    void (*pre_snapshot)(WOperator *op);
} WOpOps;

typedef struct WOpOut {
    WOperator *op;
    int input;
} WOpOut;

struct WOperator {
    const WOpOps *ops;
    int id;                         /* exec node id */
    const char *name;               /* e.g. "Calc[2]" */
    WExecCtx *ctx;
    int ninputs;
    int64_t *input_wm;              /* per input */
    bool *input_ended;
    bool *input_idle;               /* idle inputs do not hold the watermark back */
    bool idle;                      /* every input idle: this operator told its outputs so */
    int ended;
    int64_t wm;                     /* combined (min) watermark */
    int nouts, cap_outs;
    WOpOut *outs;
    int ncols;                      /* output schema */
    const WType **types;
    const char **names;
    /* counters other threads read while the lane runs (REST, the metrics sampler): only the
       thread running the operator writes them, with relaxed atomic stores (wop_count_late and
       the framework); readers use wop_read_counters */
    int64_t rows_in, rows_out;
    int64_t late_dropped;           /* numLateRecordsDropped */
    int64_t busy_ns;                /* time in this operator's own code (not its outputs') */
    int64_t backpressured_ns;       /* time it waited for room in a full exchange inbox */
    bool untimed;                   /* runtime plumbing (exchange sides, union merge): its time is
                                       its caller's */
    bool finished;
    struct WOpPublished *published; /* the metrics, published by the lane (wop_publish_metrics) */
    struct WMiniBatch *mb;          /* mini-batch bundle (minibatch.h), NULL = rows are processed at once */
    struct WInsight *insight;       /* hot keys, late rows, state growth (insight.h); NULL = off */
};

/* A late record dropped (numLateRecordsDropped); insight.h wop_late_row also accounts it. */
static inline void wop_count_late(WOperator *op)
{
    __atomic_store_n(&op->late_dropped, op->late_dropped + 1, __ATOMIC_RELAXED);
}

/* The operator's counters as another thread may read them while it runs. */
typedef struct WOpCounters {
    int64_t rows_in, rows_out, late_dropped, wm;
    int64_t busy_ns, backpressured_ns;
    bool finished;
} WOpCounters;
void wop_read_counters(const WOperator *op, WOpCounters *out);
/* The thread running op takes its metrics (state sizes: reading a state backend is only safe
   from that thread) and publishes them; wop_read_metrics gives any thread the last published
   ones (zero before the first). The runtime publishes when a job starts, every 100 ms while a
   lane runs and when it ends. */
void wop_publish_metrics(WOperator *op);
void wop_read_metrics(const WOperator *op, WOpMetrics *out);
/* op's metrics taken now and formatted (wop_metrics_format; "" without a metrics op): the thread
   running op only (job reports, tests). */
void wop_metrics_text(WOperator *op, char *buf, size_t bufsz);

/* Time accounting (Flink's busy / back-pressured / idle task times). The thread running a lane
   charges wall time to the operator whose code runs: wop_time_enter makes op the running one
   (charging the time since the last mark to the previous one) and returns the previous;
   wop_time_leave charges op and makes prev running again. So each operator's busy_ns is its own
   code's time, without the operators it emits to (untimed operators leave the time to their
   caller). wop_time_block_begin / _end bracket a wait: with an operator running (a send into a
   full inbox), the wait is its back-pressured time; without one, the lane was idle. */
struct WOperator *wop_time_enter(WExecCtx *ctx, struct WOperator *op);
void wop_time_leave(WExecCtx *ctx, struct WOperator *prev);
void wop_time_block_begin(WExecCtx *ctx);
void wop_time_block_end(WExecCtx *ctx);
/* ns of the time just charged to op were spent waiting for input (a source's rate limit or poll):
   idle, not busy. */
void wop_time_waited(WOperator *op, int64_t ns);

/* Initialise the framework part of an operator (called by each operator's constructor). */
void wop_init(WOperator *op, const WOpOps *ops, WExecCtx *ctx, int ninputs, int ncols,
              const WType **types, const char **names);
void wop_connect(WOperator *from, WOperator *to, int to_input);
void wop_free(WOperator *op);

/* Framework entry points (called by upstream). */
void wop_push(WOperator *op, int input, const WChunk *in);
void wop_input_watermark(WOperator *op, int input, int64_t wm);
void wop_input_end(WOperator *op, int input);
/* An input became idle (no data for table.exec.source.idle-timeout) or active again. Idle inputs
   are left out of the watermark minimum; when every input is idle the operator is idle too and
   tells its outputs (Flink's WatermarkStatus). */
void wop_input_idle(WOperator *op, int input, bool idle);

/* For operator implementations. */
void wop_emit(WOperator *op, const WChunk *c);
void wop_emit_watermark(WOperator *op, int64_t wm);
void wop_emit_end(WOperator *op);

/* Shallow gather of rows where sel[i] != 0 from src into dst (same columns; datums not copied). */
void wchunk_gather(WChunk *dst, const WChunk *src, const uint8_t *sel);

#endif
