/*
 * job_internal.h — the runtime's private picture of a job: lanes (one copy of the operator graph
 * per subtask), their sources, inboxes and exchange receivers. Shared by job.c (running lanes,
 * exchanges, checkpoint hooks), exchange_sender.c (an exchange's sending side) and build.c
 * (operators from exec nodes); not for other layers.
 */
#ifndef WEIR_RUNTIME_JOB_INTERNAL_H
#define WEIR_RUNTIME_JOB_INTERNAL_H

#include "job.h"
#include "checkpoint.h"
#include "vertices.h"
#include "../connectors/connector.h"
#include "../exec/constraint_enforcer.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

typedef struct SourceSlot {
    WSource *src;               /* NULL for VALUES */
    WRel *rel;
    WOperator *head;            /* receives the source's chunks on input 0 */
    WChunk *chunk;
    bool done;
    bool exhausted;             /* read to its end under stop-at-end: no end of input is sent */
    bool pending;               /* chunk holds rows read before the lanes started */
    int64_t last_rows_ms;       /* when the source last produced rows (idle timeout) */
    bool idle;
    int values_next;            /* VALUES: next row */
} SourceSlot;

/* An operator built in a lane for exec node `rel`: the implementation of job-graph operator
   `stream_op` (an index into WJob.graph->ops), or -1 for the runtime's own plumbing that Flink
   has no operator for (a Union's merge, an exchange's receiver: edges of the job graph). */
typedef struct Built { WRel *rel; WOperator *op; int stream_op; } Built;

/* How many subtasks run exec node work at runtime: lanes [0, par) of a lane range. The job's
   operators run in lanes [0, WJob.par); a sink (with its SinkMaterializer) behind a rebalance
   or keyed-shuffle edge runs in lanes [0, its sink.parallelism) — the job has as many lanes as
   the largest of these, and a lane beyond an operator's parallelism holds an idle copy of it
   (no source opened, no sink opened, nothing delivered) so that every lane lists the same
   operators in the same order. */

typedef struct Lane Lane;

/* A message between lanes: a chunk, a watermark or the end of one sender's stream. */
typedef enum {
    MSG_CHUNK, MSG_WATERMARK, MSG_END,
    MSG_BARRIER,                /* wm = checkpoint id */
    MSG_IDLE                    /* wm = 1: the sender is idle, 0: active again */
} MsgKind;
typedef struct Msg {
    MsgKind kind;
    int exch;                   /* exchange index */
    int from;                   /* sending lane */
    int64_t wm;
    WChunk *chunk;              /* owned by the message */
    struct Msg *next;
} Msg;

/* The downstream side of an exchange in one lane: merges the senders of every lane (watermark =
   minimum over senders; end when all ended). */
typedef struct Receiver {
    WOperator base;
    int nfrom;
    int64_t *wm;
    bool *ended;
    bool *idle;                 /* senders that are idle (WatermarkStatus) */
    int nended;
    bool *barrier;              /* checkpoints: senders whose barrier arrived */
} Receiver;

/* One copy of the whole operator graph: parallel subtask `index` of every vertex. With one lane
   the job runs in the caller's thread; with several, each lane has a thread and exchanges move
   rows between lanes by key group, as Flink's hash partitioner does. */
struct Lane {
    WJob *job;
    int index;
    WExecCtx ctx;
    WError err;
    int nsrc, cap_src;
    SourceSlot *srcs;
    int nbuilt, cap_built;
    Built *built;
    Receiver **recv;            /* by exchange index (cap_exch entries) */
    WOperator **send;           /* its senders, by exchange index (cap_exch entries; insight) */
    /* ---- the inbox: guarded by mu ---- */
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* signalled when a message arrives or `woken` is set */
    Msg *head, *tail;
    int *qcount;                /* per exchange: its messages in the inbox (at most LANE_INBOX_CAP) */
    bool woken;                 /* a wake-up (room in an inbox waited for, failure, cancel, checkpoint) */
    bool *room_waiters;         /* per lane: waits for room in this inbox (woken by lane_pop) */
    int nroom_waiters;
    int *wake_list;             /* lane_pop's scratch (the lane's own thread only), nlanes entries */
    pthread_t thread;
    /* ---- checkpoints (see checkpoint.h) ---- */
    WExecRegistry registry;     /* backends and timer services of this lane's operators */
    int64_t ck_id;              /* checkpoint being aligned (0 = none): sources pause */
    int64_t ck_done, ck_committed;
    int64_t ck_start_us;
    bool *ck_sent;              /* per exchange: barrier forwarded */
    Msg *held_head, *held_tail; /* messages of channels that delivered the barrier */
    int64_t stop_wait;          /* stop-with-savepoint taken: sources pause until it completes */
    bool pumped_rows;           /* the last round over the sources read rows (lane_main's fairness) */
    bool pumped_full;           /* ... and each source that read gave a full chunk (senders keep gathering) */
    int64_t published_ms;       /* metrics last published (lane_publish) */
};

/* Messages of one exchange an inbox holds at most: a sender finding it full waits (back-pressure). */
#define LANE_INBOX_CAP 64
/* Most parallel subtasks (lanes) of a job; more is refused with an error at build. */
#define WJOB_MAX_PARALLELISM 1024

struct WJob {
    WExecCtx ctx;               /* template of the lanes' contexts */
    WProcClock own_clock;       /* the job's processing time unless its driver gave one (env.proc_clock) */
    WProcClock *clock;          /* the job's processing-time source (ctx.clock_ctx): own_clock or the driver's */
    bool clock_stepped;         /* a MANUAL clock took its at-input-end step */
    int64_t test_source_delay_us; /* WEIR_TEST_SOURCE_DELAY (environment, tests only): sleep after each
                                     source chunk, so that a bounded test job runs long enough for
                                     checkpoints and kills at random moments (tests/recovery/chaos) */
    int64_t idle_timeout_ms;    /* table.exec.source.idle-timeout, 0 = never idle */
    WError err;                 /* the job's own error (it may outlive the statement) */
    WJobEnv env;
    int nops, cap_ops;
    WOperator **ops;            /* every operator of every lane */
    int nsinks, cap_sinks;
    WSink **sinks;
    int nshared, cap_shared;    /* per sink node: the state its subtasks share (under mu) */
    int *shared_rel;            /* the sink node's id */
    WSinkShared **shared;
    int nlanes;                 /* max(par, the sinks' parallelisms behind an exchange) */
    int par;                    /* parallelism.default: lanes running sources and operators */
    int *run_par;               /* per job-graph operator: the lanes [0, n) that run it */
    Lane *lanes;
    int nexch, cap_exch;
    WRel **exch;                /* exchange nodes, by index (grown by wjob_exchange_index) */
    int *exch_send_p;           /* per exchange: lanes [0, n) send on it */
    int *exch_recv_p;           /* per exchange: lanes [0, n) receive from it */
    bool *exch_rebalance;       /* per exchange: rows dealt round-robin (Flink's REBALANCE) */
    int *exch_rank;             /* per exchange: 1 + the highest rank of the exchanges upstream of its
                                   sender in a lane (0 without any); rows received from exchange x
                                   only reach senders of higher rank */
    atomic_int failed;          /* a lane failed: every lane stops */
    bool limit_workers;         /* more lanes than weir.exec.worker-threads: lanes take a slot */
    sem_t workers;              /* free worker slots (a lane gives its slot back while it waits) */
    atomic_int stopped;         /* stop-with-savepoint (no drain) completed: every lane stops */
    bool stop_at_end;           /* wckpt_stop_at_end: exhausted sources stop the job with a savepoint */
    int nsources;               /* source slots over all lanes */
    atomic_int nexhausted;      /* of them, exhausted (stop_at_end) */
    bool stop_requested;        /* lane 0 asked for the stop-at-end savepoint */
    int64_t stop_req;           /* its request number */
    int64_t ck_seen;            /* lane 0: the pending checkpoint the lanes were last woken for */
    pthread_mutex_t mu;         /* ops/sinks registration */
    WCkpt *ck;                  /* checkpoints / restore / final savepoint; NULL = none */
    int *exch_ndeps;            /* per exchange: upstream exchanges of its sender in a lane */
    int **exch_deps;
    WCkptLane *ckv;             /* per lane: the lane as checkpoint.c sees it (after build) */
    WJobGraph *graph;           /* the job graph (vertices.h): every lane builds one operator per
                                   stream operator of it, named as it names them */
};

typedef struct SinkOp {
    WOperator base;
    WSink *sink;
    WCollect collect;
    bool is_collect;
    struct WFinalRows *final;   /* batch over an updating input: final rows written at the end */
    struct WFsFlow *flow;       /* a compacting file sink's operators after it (fs_compact_flow.h) */
    int subtask;                /* its writer subtask (the lane's index) */
} SinkOp;

/* job.c */
void wjob_add_op(WJob *j, WOperator *op);
int wjob_exchange_index(WJob *j, WRel *r);
/* Exchange x's sending and receiving lanes and whether it deals rows round-robin; set before
   the first lane builds its sender and receiver. */
void wjob_exchange_setup(WJob *j, int x, int send_p, int recv_p, bool rebalance);
/* The exchange behind table scan r whose source runs at its own parallelism (build.c), -1 none. */
int wjob_scan_exchange(const WJob *j, const WRel *r);
/* The lanes [0, n) that run job-graph operator k (k < 0: the job's parallelism). */
int wjob_run_par(const WJob *j, int k);
Receiver *wjob_receiver_new(Lane *L, int exch, WRel *r);
WOperator *wjob_sender_new(Lane *L, int exch, WRel *r);
/* Sends the rows an exchange's sender gathered and has not sent yet (exchange_sender.c): before a
   checkpoint barrier leaves on its exchange, and whenever the lane would otherwise hold them
   (its sources gave less than full chunks, it has none, it is about to sleep). */
void wjob_sender_flush(WOperator *sender);
/* The lane internals an exchange's sender (exchange_sender.c) uses: delivery to the lane's own
   receiver, checkpoint alignment's blocked channels and held messages, and sending to another
   lane's inbox with back-pressure. */
void wjob_receiver_deliver(Receiver *rc, MsgKind kind, int from, int64_t wm, const WChunk *c);
bool wjob_ck_blocked(const Lane *L, const Receiver *rc, int from);
void wjob_ck_hold(Lane *L, Msg *m);
void wjob_lane_send(Lane *from, int to, MsgKind kind, int exch, int64_t wm, WChunk *chunk);

/* build.c: the operators of exec node r (and, recursively, its inputs) in lane L; NULL with
   p->err set on failure */
WOperator *wjob_build_node(WPlanCtx *p, Lane *L, WRel *r);
/* Before building: note on every scan which of its columns its consumers read (a Calc reads what
   its expressions refer to, a watermark assigner passes its consumer's columns on plus its own;
   anything else reads all), so that sources may leave the other columns unparsed. */
/* A LookupJoin's fetcher and cache (lookup_fetch.c): the dim table's lookup source opened on
   connector c with spec (the dim table's). */
struct WLookupJoinSpec;
bool wjob_lookup_fetcher(const WConnector *c, const WTableSpec *spec, const WRel *r, struct WLookupJoinSpec *out,
                         WError *err);
void wjob_mark_scan_reads(WPlanCtx *p, WRel **roots, int nroots);

#endif
