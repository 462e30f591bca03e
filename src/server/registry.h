/*
 * registry.h — the cluster's jobs: the background executor that runs submitted jobs in threads,
 * and the job history the REST API reads.
 *
 * Contract: one WRegistry per daemon (no global state); every field of every entry is guarded by
 * the registry's mutex. The executor (wregistry_executor) takes a built job from a session
 * (WJobExecutor.submit), computes its job graph (runtime/vertices.h) while the plan is alive,
 * registers it RUNNING and runs it in its own thread; when wjob_run returns, the thread takes the
 * lock, keeps the final operator metrics, sets FINISHED / FAILED / CANCELED, detaches the job and
 * only then frees it, so readers never touch freed memory. Queries (SELECT, Flink's `collect` jobs)
 * and dml-sync INSERTs run in the session's own thread; they are reported through
 * WJobExecutor.observe and registered the same way (a query is named pipeline.name or `collect`). Finished,
 * failed and cancelled jobs stay listed until the registry is destroyed. A sampler thread records
 * per-operator counters once a second (throughput and state-size history, "idle since" for the
 * what-is-each-task-doing view). The effective configuration of a job is the cluster configuration
 * overlaid with the session's. Readers use wregistry_lock / unlock around the accessors.
 * Depends on runtime/ (job, vertices), server/cluster_config, common/.
 */
#ifndef WEIR_SERVER_REGISTRY_H
#define WEIR_SERVER_REGISTRY_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cluster_config.h"
#include "../runtime/job.h"
#include "../runtime/checkpoint.h"
#include "../runtime/vertices.h"
#include "../session/session.h"

/* Flink's JobStatus, in its declaration order. */
typedef enum WJobState {
    WJS_INITIALIZING, WJS_CREATED, WJS_RUNNING, WJS_FAILING, WJS_FAILED, WJS_CANCELLING,
    WJS_CANCELED, WJS_FINISHED, WJS_RESTARTING, WJS_SUSPENDED, WJS_RECONCILING, WJS__COUNT
} WJobState;

const char *wjob_state_name(WJobState s);
bool wjob_state_terminal(WJobState s);

/* Sizes of one named state of an operator (its published metrics). */
typedef struct WStateMetric {
    char name[64];
    int64_t entries, bytes;
} WStateMetric;

#define WREG_MAX_STATES 8

/* Operator counters at one moment (one subtask, or summed over subtasks). */
typedef struct WOpStats {
    int64_t rows_in, rows_out, late_dropped;
    int64_t busy_ns, backpressured_ns;  /* time in the operator's own code / waiting for room */
    int64_t watermark;          /* combined input watermark (INT64_MIN = none yet; min over subtasks) */
    bool finished;              /* every subtask finished */
    int nstates;
    WStateMetric states[WREG_MAX_STATES];
    int64_t ttl_expired;        /* ttlExpiredRecords: records that found their state expired */
    char metrics[512];          /* other metrics of the operator's text (e.g. droppedRetractions=1) */
} WOpStats;

#define WREG_HISTORY 300        /* samples kept (one a second) */
#define WREG_RATE_SAMPLES 6     /* per-subtask samples for rates: Flink's metric views span 5 s */

/* What one vertex subtask had done when a sample was taken (sums over its operators). */
typedef struct WRegVertexSample {
    int64_t t;                  /* epoch ms, 0 = no sample */
    int64_t read, write;        /* records (wregistry_vertex_records) */
    int64_t busy_ns, backpressured_ns;
} WRegVertexSample;

/* Flink's task time metrics of one vertex subtask: accumulated busy / back-pressured / idle ms
   since the job started running, and their rates (ms per second, with records per second) from
   the oldest sample kept (5 s back; the job's start before the first sample) to now; has_rates is
   false when no time has passed (or the job ended before the samples kept). */
typedef struct WRegVertexTimes {
    int64_t read, write;        /* records so far (wregistry_vertex_records) */
    int64_t busy_ms, backpressured_ms, idle_ms;
    bool has_rates;
    double busy_per_s, backpressured_per_s, idle_per_s, records_in_per_s, records_out_per_s;
} WRegVertexTimes;

typedef struct WRegSample {
    int64_t t;                  /* epoch ms */
    int64_t rows_in, rows_out;  /* sum over the job's operators: sources' out, sinks' in */
    int64_t source_out, sink_in;
    int64_t state_bytes, state_entries;
} WRegSample;

typedef struct WRegJob {
    char id[33];
    char *name;
    WJobState state;
    int64_t ts[WJS__COUNT];     /* when each state was reached (epoch ms, 0 = never) */
    int64_t start_ms, end_ms;   /* end -1 while running */
    WOptions config;            /* effective configuration */
    WError error;               /* why it failed */
    bool is_query;              /* a SELECT (collect job) */
    WJobGraph *graph;           /* NULL for queries */
    /* while running */
    WJob *job;
    WArena *arena;
    int nlanes;                 /* subtasks per operator (wjob_parallelism) */
    const WOperator **op_of;    /* [graph operator * nlanes + subtask]: the weir operator measuring
                                   it, or NULL */
    /* after the end */
    WOpStats *final;            /* [graph operator * nlanes + subtask], set when the job ended */
    struct WInsightSnap *final_insight; /* same index: the insight kept when the job ended */
    bool *final_has_insight;
    /* insight of the hash exchanges into the graph operators: [(op * WREG_XINPUTS + input) *
       nlanes + subtask] the sender (while running); after the end, per op * WREG_XINPUTS + input,
       the senders' kept snapshots (nlanes of them) or NULL for an input without an exchange */
    const WOperator **xsend_of;
    struct WInsightSnap **final_xinsight;
    bool unbounded;             /* some source of the job is unbounded (insight: state forecast) */
    int64_t *last_change;       /* per graph operator: when rows_in or rows_out last changed */
    int64_t *last_rows;         /* per graph operator: rows_in + rows_out at the last sample */
    WRegVertexSample *vsamples; /* [(vertex * nlanes + subtask) * WREG_RATE_SAMPLES + slot], a ring */
    int vsample_next;           /* the slot the next sample goes to */
    char *failure;              /* "<class>: <message>" of a failed job */
    int64_t failure_ms;
    pid_t tid;                  /* the job thread (Linux thread id), 0 when none */
    pid_t owner_tid;            /* the session thread that ran a query or dml-sync job (kept after it ended) */
    pthread_t thread;
    bool has_thread;
    bool released;              /* the job and its plan are freed (nothing of it is running) */
    /* checkpoint figures kept when the job ended (live ones come from the job's WCkpt) */
    bool ckpt_kept;             /* the job took checkpoints (ckpts may still be empty) */
    int nckpts;
    WCkptStats *ckpts;
    int nsavepoints;            /* savepoint requests' outcomes kept when the job ended */
    struct WCkptRequest *savepoints;
    /* history for plots */
    int nhist, hist_start;
    WRegSample hist[WREG_HISTORY];
} WRegJob;

typedef struct WRegistry {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const WClusterConfig *cfg;
    int n, cap;
    WRegJob **jobs;
    int64_t started_ms;
    bool stopping;
    pthread_t sampler;
    bool has_sampler;
    uint64_t rng;
    WJobExecutor executor;
} WRegistry;

void wregistry_init(WRegistry *r, const WClusterConfig *cfg);
/* Refuse new jobs, cancel running ones and wait (bounded: 10 s per job) until their threads
   ended. Entries stay readable. */
void wregistry_stop_jobs(WRegistry *r);
/* wregistry_stop_jobs, then free everything. */
void wregistry_destroy(WRegistry *r);
/* A job id that is unknown, or whose job has been freed (its session may go). */
bool wregistry_released(WRegistry *r, const char *id);
/* The executor to hand to wsession_set_executor. */
WJobExecutor *wregistry_executor(WRegistry *r);

void wregistry_lock(WRegistry *r);
void wregistry_unlock(WRegistry *r);
/* (locked) Find by id (32 hex); NULL when unknown. */
WRegJob *wregistry_find(WRegistry *r, const char *id);
/* (locked) Operator stats of one subtask (subtask -1: summed over subtasks; below -1: zeros, a
   subtask weir does not run): live counters while running, the final ones afterwards. */
void wregistry_op_stats(const WRegJob *j, int op, int subtask, WOpStats *out);
/* Records into / out of vertex v (Flink counts network records, and a source task's input is what
   its reader emitted; a sink writes none). subtask -1 = all, < -1 = a subtask weir does not run. */
void wregistry_vertex_records(const WRegJob *j, int v, int subtask, int64_t *read, int64_t *write);
/* The task time metrics of vertex v's subtask (locked). */
void wregistry_vertex_times(const WRegJob *j, int v, int subtask, int64_t now, WRegVertexTimes *out);
/* (locked) The insight snapshot (exec/insight.h) of graph operator op in subtask: live while
   the job runs, the kept one afterwards; false when the operator keeps none. */
bool wregistry_op_insight(const WRegJob *j, int op, int subtask, struct WInsightSnap *out);
/* (locked) The snapshot of the sender in `subtask` of the hash exchange into input `input` of graph
   operator op (insight's exchange sketch); false when that input has no exchange of its own. */
#define WREG_XINPUTS 2
bool wregistry_exchange_insight(const WRegJob *j, int op, int input, int subtask, struct WInsightSnap *out);
/* (locked) The job's checkpoints and savepoints in the order they ended (completed or failed):
   live while it runs, the kept copy afterwards. *out is malloc'ed (NULL when none); returns the
   count, -1 when the job takes no checkpoints. */
int wregistry_ckpt_stats(const WRegJob *j, WCkptStats **out);
/* (locked) Epoch ms now. */
int64_t wregistry_now(void);

/* Cancel (PATCH ?mode=cancel, STOP JOB). 0 ok, -1 unknown job, 1 already terminal. */
int wregistry_cancel(WRegistry *r, const char *id);

/* Savepoint on demand of a running job (runtime/job.h wjob_trigger_savepoint): the request
   number (>= 1), -1 for an unknown or not running job, 0 with err set when refused. */
int64_t wregistry_savepoint(WRegistry *r, const char *id, const char *dir, bool stop, bool drain, WError *err);
/* Its state (also after the job ended); false when unknown. */
bool wregistry_savepoint_status(WRegistry *r, const char *id, int64_t request, struct WCkptRequest *out);
/* A fresh job id (32 hex). */
void wregistry_new_id(WRegistry *r, char out[33]);

/* An operator's published metrics (exec/operator.h WOpMetrics): its states into out (at most max;
   returns the count), ttlExpiredRecords into *ttl_expired, every other value as "k=v" into rest. */
int wregistry_state_metrics(const WOpMetrics *m, WStateMetric *out, int max, int64_t *ttl_expired,
                            char *rest, size_t restsz);

#endif
