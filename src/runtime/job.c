/*
 * job.c — running a job: lanes on worker threads, the hash/single exchanges between them with
 * bounded inboxes, sources driven chunk by chunk, checkpoint hooks, reports. Operators are built
 * by build.c. See job.h.
 *
 * Threads and memory ordering. Each lane is run by one thread (the caller's with one lane), which
 * alone touches its operators, sources, receivers and checkpoint alignment. What lanes share:
 *  - an inbox (head/tail, qcount, woken, room_waiters) only under its lane's `mu`; a message is
 *    handed over whole under that mutex, so the receiving thread sees the chunk its sender wrote;
 *  - `failed`, `stopped`: set once (0 -> 1) with release stores, read with acquire loads; the
 *    setter then wakes every lane (job_wake_all), so a lane asleep in lane_wait notices. Errors
 *    themselves stay in each lane's WError and are read only after the lanes are joined;
 *  - cancellation: WExecCtx.cancelled (exec/operator.h, release/acquire) followed by job_wake_all;
 *  - `nexhausted`: sequentially consistent increments, read by lane 0;
 *  - the checkpoint coordinator (checkpoint.c) under its own mutex; operator counters with relaxed
 *    atomics and typed metrics under a mutex (exec/operator.h) for the REST readers.
 * Lanes never poll: a lane without work sleeps on its condition variable until a message, a
 * wake-up or — lane 0 only, while checkpoints are live — the coordinator's next deadline
 * (wckpt_wait_ms). Lock order: never two inbox mutexes at once.
 *
 * Back-pressure. An inbox holds at most LANE_INBOX_CAP messages of each exchange; a sender finding
 * it full registers as a room waiter and, while it waits, works off the messages of its own inbox
 * whose exchange has a rank at least that of the exchange it sends on (their rows only reach
 * senders of a higher rank, so nesting is bounded by the number of exchanges, and along any chain
 * of waiting lanes the ranks rise: no cycle, no deadlock). Messages held for checkpoint alignment
 * leave the bound (Flink blocks those channels; here one thread serves every stage of a lane),
 * and when a newer barrier overtakes an expired checkpoint the held messages are processed in
 * place, whatever the exchange a lane is waiting on.
 */
#include "job_internal.h"

#include "../common/duration.h"
#include "../common/hash.h"
#include "../types/row.h"
#include "../exec/insight.h"
#include "../exec/minibatch.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the simulated time a checkpoint records (a STEP clock resumes there after a restore) */
#define SIM_NOW(j) ((j)->clock->kind == WPROC_CLOCK_STEP ? wproc_clock_now((j)->clock) : 0)

static bool ck_setup(WJob *j, WError *perr);     /* checkpoints, below */
static void ck_collect_deps(WJob *j, const WRel *r, int x);

/* Worker slots: at most weir.exec.worker-threads lanes run at a time (default: the machine's
   cores); a lane holds a slot while it works and gives it back while it waits for input or for
   room in another lane's inbox, so a waiting lane never keeps a working one out. */
static void worker_acquire(WJob *j)
{
    if (!j->limit_workers) return;
    while (sem_wait(&j->workers) != 0 && errno == EINTR) {}
}

static void worker_release(WJob *j)
{
    if (j->limit_workers) sem_post(&j->workers);
}

/* Set `woken` on lane L and signal it (any thread; takes only L's mutex). */
static void lane_wake(Lane *L)
{
    pthread_mutex_lock(&L->mu);
    L->woken = true;
    pthread_cond_signal(&L->cv);
    pthread_mutex_unlock(&L->mu);
}

static void job_wake_all(WJob *j)
{
    for (int l = 0; l < j->nlanes; l++) lane_wake(&j->lanes[l]);
}

void wjob_add_op(WJob *j, WOperator *op)
{
    assert(j && op && op->ops);
    pthread_mutex_lock(&j->mu);
    if (j->nops == j->cap_ops) {
        j->cap_ops = j->cap_ops ? j->cap_ops * 2 : 16;
        j->ops = wrealloc(j->ops, sizeof(WOperator *) * (size_t)j->cap_ops);
    }
    j->ops[j->nops++] = op;
    pthread_mutex_unlock(&j->mu);
}

/* ---- lanes and exchanges (parallel subtasks) ---- */

int wjob_exchange_index(WJob *j, WRel *r)
{
    assert(r && r->kind == WR_EXCHANGE);
    for (int i = 0; i < j->nexch; i++) if (j->exch[i] == r) return i;
    if (j->nexch == j->cap_exch) {      /* every lane's receivers grow with the table */
        int cap = j->cap_exch ? j->cap_exch * 2 : 16;
        j->exch = wrealloc(j->exch, sizeof(WRel *) * (size_t)cap);
        j->exch_send_p = wrealloc(j->exch_send_p, sizeof(int) * (size_t)cap);
        j->exch_recv_p = wrealloc(j->exch_recv_p, sizeof(int) * (size_t)cap);
        j->exch_rebalance = wrealloc(j->exch_rebalance, sizeof(bool) * (size_t)cap);
        for (int l = 0; l < j->nlanes; l++) {
            Lane *L = &j->lanes[l];
            L->recv = wrealloc(L->recv, sizeof(Receiver *) * (size_t)cap);
            memset(L->recv + j->cap_exch, 0, sizeof(Receiver *) * (size_t)(cap - j->cap_exch));
            L->send = wrealloc(L->send, sizeof(WOperator *) * (size_t)cap);
            memset(L->send + j->cap_exch, 0, sizeof(WOperator *) * (size_t)(cap - j->cap_exch));
        }
        j->cap_exch = cap;
    }
    j->exch[j->nexch] = r;
    j->exch_send_p[j->nexch] = j->par;
    j->exch_recv_p[j->nexch] = j->par;
    j->exch_rebalance[j->nexch] = false;
    return j->nexch++;
}

void wjob_exchange_setup(WJob *j, int x, int send_p, int recv_p, bool rebalance)
{
    assert(x >= 0 && x < j->nexch && send_p >= 1 && send_p <= j->nlanes && recv_p >= 1 && recv_p <= j->nlanes);
    j->exch_send_p[x] = send_p;
    j->exch_recv_p[x] = recv_p;
    j->exch_rebalance[x] = rebalance;
}

int wjob_scan_exchange(const WJob *j, const WRel *r)
{
    if (!r || r->kind != WR_SCAN) return -1;
    for (int i = 0; i < j->nexch; i++)
        if (j->exch[i]->ninputs == 1 && j->exch[i]->inputs[0] == r && j->exch[i]->id == r->id) return i;
    return -1;
}

int wjob_run_par(const WJob *j, int k)
{
    return k >= 0 && j->graph && k < j->graph->nops ? j->run_par[k] : j->par;
}

static void lane_fail(Lane *L)
{
    if (L->err.set && atomic_exchange_explicit(&L->job->failed, 1, memory_order_acq_rel) == 0) job_wake_all(L->job);
}

static bool job_failed(const WJob *j)
{
    return atomic_load_explicit(&j->failed, memory_order_acquire) != 0 ||
           atomic_load_explicit(&j->stopped, memory_order_acquire) != 0;
}

/* The lane stops waiting: the job failed, stopped or was cancelled. */
static bool lane_halted(Lane *L)
{
    return job_failed(L->job) || wexec_cancelled(&L->ctx) || wexec_cancelled(&L->job->ctx);
}

static void recv_process(WOperator *op, int input, const WChunk *in) { (void)input; wop_emit(op, in); }

static void recv_destroy(WOperator *op)
{
    Receiver *r = (Receiver *)op;
    free(r->wm);
    free(r->ended);
    free(r->idle);
    free(r->barrier);
    free(r);
}

static const WOpOps RECV_OPS = {.process = recv_process, .destroy = recv_destroy};

Receiver *wjob_receiver_new(Lane *L, int exch, WRel *r)
{
    WJob *j = L->job;
    assert(exch >= 0 && exch < j->nexch);
    Receiver *rc = wcalloc(1, sizeof *rc);
    wop_init(&rc->base, &RECV_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    /* a lane beyond the exchange's receiving subtasks hears from no sender (an idle copy) */
    rc->nfrom = L->index < j->exch_recv_p[exch] ? j->exch_send_p[exch] : 0;
    size_t n = (size_t)(rc->nfrom ? rc->nfrom : 1);
    rc->wm = wmalloc(sizeof(int64_t) * n);
    rc->ended = wcalloc(n, sizeof(bool));
    rc->barrier = wcalloc(n, sizeof(bool));
    rc->idle = wcalloc(n, sizeof(bool));
    for (int i = 0; i < rc->nfrom; i++) rc->wm[i] = WWM_MIN;
    return rc;
}

/* Deliver one sender's element to a receiver (in the receiver's lane thread). */
void wjob_receiver_deliver(Receiver *rc, MsgKind kind, int from, int64_t wm, const WChunk *c)
{
    WOperator *op = &rc->base;
    assert(from >= 0 && from < rc->nfrom && rc->nended <= rc->nfrom);
    switch (kind) {
    case MSG_CHUNK:
        wop_push(op, 0, c);
        break;
    case MSG_WATERMARK:
    case MSG_IDLE: {
        if (kind == MSG_IDLE) rc->idle[from] = wm != 0;
        else if (wm > rc->wm[from]) rc->wm[from] = wm;
        /* idle senders (Flink's WatermarkStatus.IDLE) do not hold the watermark back; when every
           sender still running is idle, so is the receiver */
        int64_t m = WWM_MAX;
        bool all_idle = true;
        for (int i = 0; i < rc->nfrom; i++) {
            if (!rc->idle[i] && rc->wm[i] < m) m = rc->wm[i];
            if (!rc->idle[i] && !rc->ended[i]) all_idle = false;
        }
        if (kind == MSG_IDLE) wop_input_idle(op, 0, all_idle && rc->nended < rc->nfrom);
        if (m > WWM_MIN && m < WWM_MAX) wop_input_watermark(op, 0, m);
        break;
    }
    case MSG_BARRIER:           /* handled by the lane (ck_barrier) */
        break;
    case MSG_END:
        if (rc->ended[from]) break;
        rc->ended[from] = true;
        rc->wm[from] = WWM_MAX;
        if (++rc->nended == rc->nfrom) {
            wop_input_watermark(op, 0, WWM_MAX);
            wop_input_end(op, 0);
        }
        break;
    }
}

/* ---- checkpoint barriers (hooks for checkpoint.c) ----
   A lane takes checkpoint n when its sources are paused at a chunk boundary and every receiver
   has the barrier n from every sender (or the sender ended); meanwhile (EXACTLY_ONCE) messages
   of channels that delivered the barrier are held, and each sender forwards the barrier once the
   receivers upstream of it in the lane are aligned. Then the lane snapshots, releases what it
   held and resumes its sources. */
static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void ck_enter(Lane *L, int64_t id)
{
    L->ck_id = id;
    L->ck_start_us = now_us();
}

static void lane_process_msg(Lane *L, Msg *m);

/* The lane is done with checkpoint ck_id (taken, or expired): alignment ends and the messages held
   for it are processed. */
static void ck_leave(Lane *L)
{
    WJob *j = L->job;
    L->ck_done = L->ck_id;
    L->ck_id = 0;
    for (int x = 0; x < j->nexch; x++) {
        L->ck_sent[x] = false;
        if (L->recv[x]) memset(L->recv[x]->barrier, 0, sizeof(bool) * (size_t)L->recv[x]->nfrom);
    }
    Msg *m = L->held_head;
    L->held_head = L->held_tail = NULL;
    while (m) {
        Msg *n = m->next;
        m->next = NULL;
        lane_process_msg(L, m);
        m = n;
    }
}

bool wjob_ck_blocked(const Lane *L, const Receiver *rc, int from)
{
    return L->ck_id && rc && rc->barrier[from] && wckpt_exactly_once(L->job->ck);
}

void wjob_ck_hold(Lane *L, Msg *m)
{
    m->next = NULL;
    if (L->held_tail) L->held_tail->next = m; else L->held_head = m;
    L->held_tail = m;
}

static void ck_barrier(Lane *L, Receiver *rc, int from, int64_t id)
{
    assert(id > 0 && (!rc || (from >= 0 && from < rc->nfrom)));
    if (!rc || id <= L->ck_done) return;        /* late barrier of a sender that had ended */
    if (L->ck_id && id < L->ck_id) return;      /* of a checkpoint that expired */
    if (L->ck_id && id > L->ck_id) ck_leave(L); /* the one being aligned expired */
    if (!L->ck_id) ck_enter(L, id);
    rc->barrier[from] = true;
}

static void lane_process_msg(Lane *L, Msg *m)
{
    assert(m && m->exch >= 0 && m->exch < L->job->nexch && m->from >= 0 && m->from < L->job->nlanes);
    assert((m->kind == MSG_CHUNK) == (m->chunk != NULL));
    Receiver *rc = L->recv[m->exch];
    if (m->kind == MSG_BARRIER) { ck_barrier(L, rc, m->from, m->wm); free(m); return; }
    if (wjob_ck_blocked(L, rc, m->from)) { wjob_ck_hold(L, m); return; }
    if (rc && !L->err.set) wjob_receiver_deliver(rc, m->kind, m->from, m->wm, m->chunk);
    lane_fail(L);
    wchunk_free(m->chunk);
    free(m);
}

/* The first message of L's inbox whose exchange has rank >= min_rank (under L->mu). */
static Msg *inbox_find(const Lane *L, int min_rank, Msg **prev)
{
    Msg *p = NULL, *m = L->head;
    while (m && L->job->exch_rank[m->exch] < min_rank) { p = m; m = m->next; }
    if (prev) *prev = p;
    return m;
}

/* Take the first message of L's inbox with exchange rank >= min_rank (L's own thread); the lanes
   waiting for room in L's inbox are woken. */
static Msg *lane_pop(Lane *L, int min_rank)
{
    WJob *j = L->job;
    int nwake = 0;
    pthread_mutex_lock(&L->mu);
    Msg *prev;
    Msg *m = inbox_find(L, min_rank, &prev);
    if (m) {
        if (prev) prev->next = m->next; else L->head = m->next;
        if (L->tail == m) L->tail = prev;
        m->next = NULL;
        assert(L->qcount[m->exch] > 0);
        L->qcount[m->exch]--;
        for (int w = 0; w < j->nlanes && L->nroom_waiters > 0; w++) {
            if (!L->room_waiters[w]) continue;
            L->room_waiters[w] = false;
            L->nroom_waiters--;
            L->wake_list[nwake++] = w;
        }
        assert(L->nroom_waiters == 0);
    }
    pthread_mutex_unlock(&L->mu);
    for (int i = 0; i < nwake; i++) lane_wake(&j->lanes[L->wake_list[i]]);
    return m;
}

/* Process what is in L's inbox now (messages of exchanges of rank >= min_rank), at most max
   messages (-1: until it is empty); true when something was processed. */
static bool lane_drain(Lane *L, int min_rank, int max)
{
    int n = 0;
    Msg *m;
    while ((max < 0 || n < max) && !job_failed(L->job) && (m = lane_pop(L, min_rank)) != NULL) {
        lane_process_msg(L, m);
        n++;
    }
    return n > 0;
}

/* Sleep until L's inbox has a message of rank >= min_rank, L is woken, the job halts or
   timeout_ms passed (-1: no timeout). The lane's worker slot is free meanwhile. */
static void lane_wait(Lane *L, int min_rank, int64_t timeout_ms)
{
    WJob *j = L->job;
    wop_time_block_begin(&L->ctx);      /* an operator sending into a full inbox: back-pressured */
    worker_release(j);
    struct timespec until;
    if (timeout_ms >= 0) {
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += timeout_ms / 1000;
        until.tv_nsec += timeout_ms % 1000 * 1000000;
        if (until.tv_nsec >= 1000000000) { until.tv_sec++; until.tv_nsec -= 1000000000; }
    }
    pthread_mutex_lock(&L->mu);
    while (!L->woken && !inbox_find(L, min_rank, NULL) && !lane_halted(L)) {
        if (timeout_ms < 0) pthread_cond_wait(&L->cv, &L->mu);
        else if (pthread_cond_timedwait(&L->cv, &L->mu, &until) == ETIMEDOUT) break;
    }
    L->woken = false;
    pthread_mutex_unlock(&L->mu);
    worker_acquire(j);
    wop_time_block_end(&L->ctx);
}

/* Send from lane `from` to lane `to` (another lane). The inbox bound gives back-pressure: while
   `to` holds LANE_INBOX_CAP messages of this exchange, `from` works off the messages of its own
   inbox of this exchange's rank or higher, or sleeps until `to` takes a message (see the top). */
void wjob_lane_send(Lane *from, int to, MsgKind kind, int exch, int64_t wm, WChunk *chunk)
{
    WJob *j = from->job;
    assert(to != from->index && to >= 0 && to < j->nlanes && exch >= 0 && exch < j->nexch);
    Lane *T = &j->lanes[to];
    Msg *m = wcalloc(1, sizeof *m);
    m->kind = kind;
    m->exch = exch;
    m->from = from->index;
    m->wm = wm;
    m->chunk = chunk;
    int rank = j->exch_rank[exch];
    pthread_mutex_lock(&T->mu);
    while (T->qcount[exch] >= LANE_INBOX_CAP && !lane_halted(from)) {
        if (!T->room_waiters[from->index]) {
            T->room_waiters[from->index] = true;
            T->nroom_waiters++;
        }
        pthread_mutex_unlock(&T->mu);
        if (!lane_drain(from, rank, -1)) lane_wait(from, rank, -1);
        pthread_mutex_lock(&T->mu);
    }
    if (T->tail) T->tail->next = m; else T->head = m;
    T->tail = m;
    T->qcount[exch]++;
    pthread_cond_signal(&T->cv);
    pthread_mutex_unlock(&T->mu);
}

/* exch_rank[x]: 1 + the highest rank of the exchanges upstream of x's sender (memoised; the
   exchanges form a DAG, so depth never exceeds their number). */
static int exch_rank_of(WJob *j, int x, int depth)
{
    assert(depth <= j->nexch);
    if (j->exch_rank[x]) return j->exch_rank[x] - 1;
    int r = 0;
    for (int d = 0; d < j->exch_ndeps[x]; d++) {
        int u = exch_rank_of(j, j->exch_deps[x][d], depth + 1) + 1;
        if (u > r) r = u;
    }
    j->exch_rank[x] = r + 1;        /* stored + 1 while building: 0 = not computed yet */
    return r;
}

/* The lanes that run each job-graph operator (run_par) and the job's lane count. Everything runs
   at parallelism.default, except a table sink whose input edge is a rebalance or a keyBy (the
   job graph's REBALANCE / HASH: sink.parallelism differs from its input's, or
   table.exec.sink.keyed-shuffle) and a SinkMaterializer (behind its keyBy) with the sink after
   it: those run at their own parallelism, with an exchange in front (build.c); and a table
   source with scan.parallelism, with an exchange behind it (build.c: scan_exchange_rel). */
static bool runtime_parallelism(WJob *j, WError *err)
{
    const WJobGraph *g = j->graph;
    int n = g ? g->nops : 0;
    j->run_par = wmalloc(sizeof(int) * (size_t)(n ? n : 1));
    j->nlanes = j->par;
    bool *region = wcalloc((size_t)(n ? n : 1), sizeof(bool));
    for (int k = 0; k < n; k++) j->run_par[k] = j->par;
    for (int k = 0; k < n; k++) {
        const WStreamOp *o = &g->ops[k];
        /* a table source at its own parallelism (scan.parallelism): an exchange behind it */
        if (o->is_source && o->kind == WR_SCAN && o->parallelism != j->par) {
            if (o->parallelism > WJOB_MAX_PARALLELISM) {
                werr_set(err, WEXC_ILLEGAL_ARG,
                         "The parallelism %d (scan.parallelism of table '%s') is larger than the %d parallel subtasks "
                         "weir runs a job with at most.",
                         o->parallelism, o->rel && wrel_scan(o->rel)->table_qname ? wrel_scan(o->rel)->table_qname : "?",
                         WJOB_MAX_PARALLELISM);
                free(region);
                return false;
            }
            j->run_par[k] = o->parallelism;
            if (o->parallelism > j->nlanes) j->nlanes = o->parallelism;
            continue;
        }
        if (o->role != WSOP_OPERATOR || !o->rel || o->ninputs != 1) continue;
        bool boundary = (o->kind == WR_SINK_MATERIALIZER && o->inputs[0].ship == WSHIP_HASH) ||
                        (o->kind == WR_SINK && wrel_sink(o->rel)->table &&
                         (o->inputs[0].ship == WSHIP_HASH || o->inputs[0].ship == WSHIP_REBALANCE));
        if (!boundary) continue;
        if (o->parallelism > WJOB_MAX_PARALLELISM) {
            const WRel *sink = o->kind == WR_SINK ? o->rel : NULL;
            for (int c = k + 1; c < n && !sink; c++)    /* a materializer's sink */
                if (g->ops[c].kind == WR_SINK && g->ops[c].ninputs == 1 && g->ops[c].inputs[0].from == k) sink = g->ops[c].rel;
            werr_set(err, WEXC_ILLEGAL_ARG,
                     "The parallelism %d (sink.parallelism of table '%s') is larger than the %d parallel subtasks weir "
                     "runs a job with at most.",
                     o->parallelism, sink && wrel_sink(sink)->qname ? wrel_sink(sink)->qname : "?", WJOB_MAX_PARALLELISM);
            free(region);
            return false;
        }
        j->run_par[k] = o->parallelism;
        region[k] = true;
        if (o->parallelism > j->nlanes) j->nlanes = o->parallelism;
    }
    /* what follows in a sink's chain (timestamp inserter and writer after a materializer,
       `end: Writer`) runs in the same lanes */
    for (int c = 0; c < n; c++) {
        const WStreamOp *o = &g->ops[c];
        if (region[c] || o->ninputs != 1 || o->kind != WR_SINK || !region[o->inputs[0].from]) continue;
        region[c] = true;
        j->run_par[c] = j->run_par[o->inputs[0].from];
    }
    free(region);
    return true;
}

static void lane_init(WJob *j, Lane *L, int index)
{
    L->job = j;
    L->index = index;
    L->ctx = j->ctx;
    werr_clear(&L->err);
    L->ctx.err = &L->err;
    L->ctx.registry = &L->registry;
    L->recv = NULL;             /* grown with the exchange table (wjob_exchange_index) */
    L->send = NULL;
    L->room_waiters = wcalloc((size_t)j->nlanes, sizeof(bool));
    L->wake_list = wcalloc((size_t)j->nlanes, sizeof(int));
    pthread_mutex_init(&L->mu, NULL);
    pthread_cond_init(&L->cv, NULL);
}

WJob *wjob_build(WPlanCtx *p, WRel **roots, int nroots, const WJobEnv *env)
{
    WJob *j = wcalloc(1, sizeof *j);
    j->env = *env;
    werr_clear(&j->err);
    pthread_mutex_init(&j->mu, NULL);
    j->ctx.err = &j->err;
    if (env->cast) j->ctx.cast = *env->cast;
    j->ctx.config = env->config;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    j->ctx.start_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    int64_t rows = WCHUNK_CAP;
    WError tmp;
    werr_clear(&tmp);
    if (env->config) wopts_get_long(env->config, "weir.exec.chunk-rows", WCHUNK_CAP, &rows, &tmp);
    if (rows < 1) rows = 1;
    if (rows > WCHUNK_CAP) rows = WCHUNK_CAP;
    j->ctx.chunk_rows = (int)rows;
    if (env->config) wopts_get_duration_ms(env->config, "table.exec.source.idle-timeout", 0, &j->idle_timeout_ms, &tmp);
    int64_t par = 1;
    if (env->config) wopts_get_long(env->config, "parallelism.default", 1, &par, &tmp);
    if (par < 1) par = 1;
    if (par > WJOB_MAX_PARALLELISM) {
        if (p->err && !p->err->set)
            werr_set(p->err, WEXC_ILLEGAL_ARG,
                     "The parallelism %lld (parallelism.default) is larger than the %d parallel subtasks weir runs a job with at most.",
                     (long long)par, WJOB_MAX_PARALLELISM);
        free(j);
        return NULL;
    }
    j->par = (int)par;
    /* the job graph first: every lane builds the operators it lists (build.c), and a sink behind
       a rebalance or keyed-shuffle edge runs at its own parallelism (lanes beyond the job's) */
    j->graph = wjobgraph_build(roots, nroots, env->config);
    if (!runtime_parallelism(j, p->err)) {
        wjobgraph_free(j->graph);
        free(j->run_par);
        free(j);
        return NULL;
    }
    /* processing time: the driver's clock (a manual one: one lane only, since its steps wait for
       the input to be processed), else weir.exec.simulated-clock.step (starts at the job's start
       and advances after every chunk a source delivers, so that TTL and processing-time
       behaviour are reproducible; one lane only), else the wall clock */
    int64_t step = 0;
    wproc_clock_init_wall(&j->own_clock);
    j->clock = &j->own_clock;
    if (env->proc_clock) {
        assert(env->proc_clock->kind == WPROC_CLOCK_MANUAL);
        if (j->nlanes != 1) {
            if (p->err && !p->err->set)
                werr_set(p->err, WEXC_ILLEGAL_ARG,
                         "A manual processing-time clock runs a job of one subtask only; this job runs %d.", j->nlanes);
            wjobgraph_free(j->graph);
            free(j->run_par);
            free(j);
            return NULL;
        }
        j->clock = env->proc_clock;
    } else if (j->nlanes == 1 && env->config &&
               wopts_get_duration_ms(env->config, "weir.exec.simulated-clock.step", 0, &step, &tmp) && step > 0) {
        wproc_clock_init_step(&j->own_clock, j->ctx.start_ms, step);
    }
    j->ctx.clock = wproc_clock_fn;
    j->ctx.clock_ctx = j->clock;
    /* test hook, out of a SQL session's reach like WEIR_TEST_KILL_AT (checkpoint.h) */
    const char *src_delay = getenv("WEIR_TEST_SOURCE_DELAY");
    if (src_delay && *src_delay) {
        int64_t ms = 0;
        WError derr;
        werr_clear(&derr);
        if (!wduration_parse(src_delay, &ms, &derr) || ms < 0) {
            if (p->err && !p->err->set)
                werr_set(p->err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_SOURCE_DELAY: '%s'.", src_delay);
            wjobgraph_free(j->graph);
            free(j->run_par);
            free(j);
            return NULL;
        }
        j->test_source_delay_us = ms * 1000;
    }
    int64_t maxp = 0;
    if (env->config) wopts_get_long(env->config, "pipeline.max-parallelism", 0, &maxp, &tmp);
    j->ctx.max_parallelism = maxp > 0 ? (int)maxp : wflink_default_max_parallelism(j->par);
    /* checkpoints: options, and the checkpoint to restore (its max parallelism wins) */
    WError ckerr;
    werr_clear(&ckerr);
    /* BATCH jobs do not checkpoint (Flink disables checkpointing in BATCH execution mode: its batch
       operators — Sort, OverAggregate — keep their input in memory, not in keyed state) */
    const char *rmode = env->config ? wopts_get(env->config, "execution.runtime-mode") : NULL;
    bool batch = rmode && !strcasecmp(rmode, "batch");
    j->ck = batch ? NULL : wckpt_new(env->config, env->job_id, j->nlanes, &ckerr);
    if (j->ck) wckpt_set_job_parallelism(j->ck, j->par);
    if (ckerr.set || !wckpt_max_parallelism(j->ck, (int)maxp, j->ctx.max_parallelism, &j->ctx.max_parallelism, &ckerr)) {
        if (p->err && !p->err->set) *p->err = ckerr;
        wckpt_free(j->ck);
        j->ck = NULL;
        wjobgraph_free(j->graph);
        free(j->run_par);
        free(j);
        return NULL;
    }
    j->lanes = wcalloc((size_t)j->nlanes, sizeof(Lane));
    for (int l = 0; l < j->nlanes; l++) lane_init(j, &j->lanes[l], l);
    wjob_mark_scan_reads(p, roots, nroots);
    for (int l = 0; l < j->nlanes; l++) {
        Lane *L = &j->lanes[l];
        for (int i = 0; i < nroots; i++) {
            if (!wjob_build_node(p, L, roots[i])) {
                /* operator constructors report through the lane's error, planning through p->err */
                if (L->err.set && p->err && !p->err->set) *p->err = L->err;
                wjob_free(j);
                return NULL;
            }
        }
        if (L->err.set) {
            if (p->err && !p->err->set) *p->err = L->err;
            wjob_free(j);
            return NULL;
        }
    }
    /* exchange ranks (wjob_lane_send's back-pressure) and the inboxes' per-exchange counts */
    j->exch_ndeps = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(int));
    j->exch_deps = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(int *));
    for (int x = 0; x < j->nexch; x++) ck_collect_deps(j, j->exch[x], x);
    j->exch_rank = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(int));
    for (int x = 0; x < j->nexch; x++) exch_rank_of(j, x, 0);
    for (int x = 0; x < j->nexch; x++) j->exch_rank[x]--;
    for (int l = 0; l < j->nlanes; l++) j->lanes[l].qcount = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(int));
    if (j->ck && !ck_setup(j, p->err)) {
        wjob_free(j);
        return NULL;
    }
    j->stop_at_end = wckpt_stop_at_end(j->ck);
    for (int l = 0; l < j->nlanes; l++) j->nsources += j->lanes[l].nsrc;
    return j;
}

static void lane_tick(Lane *L);

/* A MANUAL clock's at-input-end step (common/proc_clock.h), once every source of the job (one
   lane) has read its input and everything read has been processed: the clock advances and the
   operators' processing-time timers fire, before the sources end or the savepoint is taken. */
static void clock_input_end_step(Lane *L)
{
    WJob *j = L->job;
    if (j->clock->kind != WPROC_CLOCK_MANUAL || j->clock_stepped || !j->clock->at_input_end_ms) return;
    assert(j->nlanes == 1);
    j->clock_stepped = true;
    wproc_clock_advance(j->clock, j->clock->at_input_end_ms);
    lane_tick(L);
    lane_fail(L);
}

/* Whether source ends wait for a MANUAL clock's at-input-end step. */
static bool clock_defers_end(const WJob *j)
{
    return j->clock->kind == WPROC_CLOCK_MANUAL && j->clock->at_input_end_ms && !j->clock_stepped;
}

/* Source s read its input: it ends (final watermark, end of input), or under stop-at-end it is
   only exhausted — the job then stops with a savepoint and keeps every window and timer. Under
   a MANUAL clock with an at-input-end step a source is exhausted first; when the last one is,
   the clock takes its step and they all end. */
static void source_ended(Lane *L, SourceSlot *s)
{
    WJob *j = L->job;
    if (!j->stop_at_end && clock_defers_end(j)) {
        if (s->exhausted) return;
        s->exhausted = true;
        if (atomic_fetch_add(&j->nexhausted, 1) + 1 < j->nsources) return;
        clock_input_end_step(L);
        for (int i = 0; i < L->nsrc; i++) {
            SourceSlot *e = &L->srcs[i];
            if (!e->exhausted || e->done) continue;
            e->done = true;
            wop_input_watermark(e->head, 0, WWM_MAX);
            wop_input_end(e->head, 0);
            lane_fail(L);
        }
        return;
    }
    if (L->job->stop_at_end) {
        if (!s->exhausted) {
            s->exhausted = true;
            /* a subtask that had nothing to read (no split) is idle: it does not hold the
               watermark of the others back while the job waits for its savepoint */
            bool read_nothing = s->src ? s->src->rows_read == 0 : L->index != 0 || wrel_values(s->rel)->nrows == 0;
            if (read_nothing && !s->idle) {
                s->idle = true;
                wop_input_idle(s->head, 0, true);
                lane_fail(L);
            }
            bool last = atomic_fetch_add(&L->job->nexhausted, 1) + 1 == L->job->nsources;
            if (last) clock_input_end_step(L);      /* before the savepoint (one lane) */
            if (last && L->index != 0)
                lane_wake(&L->job->lanes[0]);       /* lane 0 asks for the savepoint */
        }
        return;
    }
    s->done = true;
    wop_input_watermark(s->head, 0, WWM_MAX);
    wop_input_end(s->head, 0);
    lane_fail(L);
}

/* Push the chunk s read before the lanes started (wjob_run), if it still holds it; true when it did. */
static bool push_pending(Lane *L, SourceSlot *s)
{
    if (!s->pending) return false;
    s->pending = false;
    L->pumped_rows = true;
    L->pumped_full = false;
    wop_push(s->head, 0, s->chunk);
    return true;
}

static bool pump_values(Lane *L, SourceSlot *s)
{
    WChunk *c = s->chunk;
    wchunk_reset(c);
    WRel *r = s->rel;
    const WRelValues *rv = wrel_values(r);
    if (L->index != 0) return false;        /* VALUES is one split, read by the first subtask */
    while (s->values_next < rv->nrows && c->nrows < c->cap) {
        int row = wchunk_add_row(c, WRK_INSERT);
        for (int k = 0; k < r->out.n; k++) {
            c->cols[k].data[row] = rv->rows[s->values_next][k];
            c->cols[k].nulls[row] = rv->row_nulls[s->values_next][k];
        }
        s->values_next++;
    }
    if (c->nrows) wop_push(s->head, 0, c);
    return s->values_next < rv->nrows;
}

/* Processing-time timers of the lane's operators (the MiniBatchAssigner's interval). A lane ticks
   once before its sources' first rows too: every ProcTime MiniBatchAssigner then emits its first
   boundary before any row, as Flink's single (reused) assigner does for all of a self-join's
   inputs, so that the rows of a bounded input share one batch of a two-input operator. */
static void lane_tick(Lane *L)
{
    for (int i = 0; i < L->nbuilt && !L->err.set; i++) {
        WOperator *op = L->built[i].op;
        if (!op->ops->tick) continue;
        WOperator *prev = wop_time_enter(&L->ctx, op);
        op->ops->tick(op);
        wop_time_leave(&L->ctx, prev);
    }
}

/* Mini-batch: process the bundles of the lane's operators that feed rel r (up to the exchanges
   before it), upstream first, so that what they hold leaves before a checkpoint barrier does. */
static void lane_flush_bundles(Lane *L, const WRel *r, int depth)
{
    if (depth > 2000 || r->kind == WR_EXCHANGE) return;
    for (int i = 0; i < r->ninputs; i++) lane_flush_bundles(L, r->inputs[i], depth + 1);
    for (int i = 0; i < L->nbuilt; i++)
        if (L->built[i].rel == r && L->built[i].op->mb) wop_minibatch_flush(L->built[i].op);
}

/* One round over the lane's sources; returns the number still active. */
static int lane_pump(Lane *L)
{
    WJob *j = L->job;
    int active = 0;
    L->pumped_rows = false;
    L->pumped_full = true;      /* until a source gives less */
    for (int i = 0; i < L->nsrc; i++) {
        SourceSlot *s = &L->srcs[i];
        if (s->done || s->exhausted) continue;
        if (L->ck_id || L->stop_wait) { active++; continue; }      /* paused for a checkpoint */
        bool more;
        if (push_pending(L, s)) {
            more = true;
        } else if (!s->src) {
            more = pump_values(L, s);
            L->pumped_rows = true;
            L->pumped_full = false;
        } else {
            wchunk_reset(s->chunk);
            WOperator *prev = wop_time_enter(&L->ctx, s->head);     /* reading is the source's time */
            int64_t waited = s->src->waited_ns;
            WSourceStatus st = s->src->next(s->src, s->chunk, &L->err);
            wop_time_leave(&L->ctx, prev);
            wop_time_waited(s->head, s->src->waited_ns - waited);   /* its waits for input are idle */
            if (st == WSRC_ERROR) { lane_fail(L); return 0; }
            if (s->chunk->nrows) L->pumped_rows = true;
            if (s->chunk->nrows < s->chunk->cap) L->pumped_full = false;
            if (s->chunk->nrows) wop_push(s->head, 0, s->chunk);
            wproc_clock_on_chunk(j->clock);
            if (j->test_source_delay_us && s->chunk->nrows)
                nanosleep(&(struct timespec){j->test_source_delay_us / 1000000, j->test_source_delay_us % 1000000 * 1000}, NULL);
            more = st != WSRC_END;
            /* table.exec.source.idle-timeout: a source without data that long is idle, so it no
               longer holds back the watermark downstream; rows make it active again */
            if (j->idle_timeout_ms > 0) {
                int64_t now = wexec_now(&L->ctx);
                if (s->chunk->nrows) {
                    s->last_rows_ms = now;
                    if (s->idle) { s->idle = false; wop_input_idle(s->head, 0, false); }
                } else if (!s->idle && s->last_rows_ms && now - s->last_rows_ms >= j->idle_timeout_ms) {
                    s->idle = true;
                    wop_input_idle(s->head, 0, true);
                } else if (!s->last_rows_ms) {
                    s->last_rows_ms = now;
                }
            }
        }
        lane_fail(L);
        if (L->err.set || wexec_cancelled(&L->ctx) || job_failed(j)) return 0;
        if (!more) source_ended(L, s);
        else active++;
    }
    if (!L->ck_id && !L->stop_wait) {
        lane_tick(L);
        lane_fail(L);
    }
    if (!L->pumped_rows) L->pumped_full = false;
    return active;
}

/* Sends what the lane's exchange senders gathered (wjob_sender_flush). */
static void lane_flush_senders(Lane *L)
{
    for (int x = 0; x < L->job->nexch && !L->err.set; x++)
        if (L->send[x]) {
            wjob_sender_flush(L->send[x]);
            lane_fail(L);
        }
}

static bool lane_receivers_done(const Lane *L)
{
    for (int x = 0; x < L->job->nexch; x++)
        if (L->recv[x] && L->recv[x]->nended < L->recv[x]->nfrom) return false;
    return true;
}

/* ---- checkpoints: alignment step, views, set-up (hooks for checkpoint.c) ---- */

static bool ck_aligned(const Receiver *rc)
{
    if (!rc) return true;
    for (int f = 0; f < rc->nfrom; f++) if (!rc->barrier[f] && !rc->ended[f]) return false;
    return true;
}

/* At a chunk boundary of lane L (never inside a push): publish sink files of completed
   checkpoints, trigger (lane 0), forward barriers whose upstream is aligned, snapshot once
   everything is aligned. */
/* A stop-with-savepoint's savepoint completed (state 2: stop; 3: drain, i.e. end the sources as at
   the end of their input, with the final watermark). */
static void ck_apply_stop(Lane *L, int state)
{
    WJob *j = L->job;
    L->stop_wait = 0;
    if (state == 2) {
        atomic_store_explicit(&j->stopped, 1, memory_order_release);
        job_wake_all(j);
        return;
    }
    for (int i = 0; i < L->nsrc; i++) {
        SourceSlot *s = &L->srcs[i];
        if (s->done) continue;
        push_pending(L, s);
        s->done = true;
        wop_input_watermark(s->head, 0, WWM_MAX);
        wop_input_end(s->head, 0);
        lane_fail(L);
    }
}

/* Lane 0 after polling the coordinator: a checkpoint triggered or expired wakes every lane (a
   sleeping lane has no other reason to look). */
static void ck_notice(Lane *L)
{
    WJob *j = L->job;
    assert(L->index == 0);
    int64_t pend = wckpt_pending(j->ck);
    if (pend == j->ck_seen) return;
    j->ck_seen = pend;
    job_wake_all(j);
}

static void ck_step(Lane *L)
{
    WJob *j = L->job;
    if (!j->ck || L->err.set) return;
    if (L->index == 0 && j->stop_at_end && !j->stop_requested &&
        atomic_load(&j->nexhausted) == j->nsources) {
        j->stop_requested = true;
        j->stop_req = wckpt_request_stop_at_end(j->ck, &L->err);
        if (!j->stop_req) { lane_fail(L); return; }
    }
    WCkptRequest rq;
    if (L->index == 0 && j->stop_req && wckpt_request_status(j->ck, j->stop_req, &rq) && rq.state == WCKPT_REQ_FAILED) {
        werr_set(&L->err, "java.util.concurrent.ExecutionException", "%s", rq.failure);
        lane_fail(L);
        return;
    }
    if (!L->ck_id && !L->stop_wait && !wckpt_live(j->ck)) {
        /* no checkpoints: only a savepoint request wakes the coordinator */
        if (L->index == 0) {
            wckpt_poll_trigger(j->ck, 0);
            ck_notice(L);
        }
        if (!wckpt_live(j->ck)) return;
    }
    if (L->stop_wait) {
        int st = wckpt_stop_state(j->ck, L->stop_wait);
        if (st == 1) return;
        if (st >= 2) { ck_apply_stop(L, st); return; }   /* a stop commits when the lane ends (lane_main) */
        L->stop_wait = 0;
    }
    if (!wckpt_lane_commit(j->ck, &j->ckv[L->index], &L->ck_committed, &L->err)) { lane_fail(L); return; }
    if (wckpt_job_failure(j->ck, &L->err)) { lane_fail(L); return; }
    if (L->ck_id && wckpt_pending(j->ck) != L->ck_id) {
        /* expired before this lane took it */
        ck_leave(L);
        return;
    }
    if (!L->ck_id) {
        if (L->index == 0) {
            wckpt_tick(j->ck);
            wckpt_poll_trigger(j->ck, wexec_now(&L->ctx));
            ck_notice(L);
        }
        int64_t pend = wckpt_pending(j->ck);
        if (pend <= L->ck_done) return;
        ck_enter(L, pend);
        /* A chunk a source read before the lanes started (wjob_run) and that the lane has not pushed
           yet is already inside the source's position: its rows go out before this barrier, or a
           restore from this checkpoint would skip them (a checkpoint triggered in the job's first
           millisecond lost the first rows of a source subtask: kill_restore fltsp-p2-sink3-between). */
        for (int i = 0; i < L->nsrc && !L->err.set; i++)
            if (!L->srcs[i].done && push_pending(L, &L->srcs[i])) lane_fail(L);
        if (L->err.set) return;
    }
    bool ready = true;
    for (int x = 0; x < j->nexch; x++) {
        if (L->ck_sent[x]) continue;
        bool up = true;
        for (int d = 0; d < j->exch_ndeps[x]; d++) up = up && ck_aligned(L->recv[j->exch_deps[x][d]]);
        if (!up) { ready = false; continue; }
        L->ck_sent[x] = true;
        if (L->index >= j->exch_send_p[x]) continue;    /* an idle copy sends no barrier */
        lane_flush_bundles(L, j->exch[x]->inputs[0], 0);
        if (L->send[x]) wjob_sender_flush(L->send[x]);     /* its rows go before the barrier */
        for (int t = 0; t < j->exch_recv_p[x]; t++) {
            if (t == L->index) ck_barrier(L, L->recv[x], L->index, L->ck_id);
            else wjob_lane_send(L, t, MSG_BARRIER, x, L->ck_id, NULL);
        }
    }
    if (!ready) return;
    for (int x = 0; x < j->nexch; x++) if (!ck_aligned(L->recv[x])) return;
    int64_t id = L->ck_id;
    for (int i = 0; i < L->nbuilt; i++)         /* Flink's prepareSnapshotPreBarrier */
        if (L->built[i].op->mb) wop_minibatch_flush(L->built[i].op);
    for (int i = 0; i < L->nbuilt; i++) {       /* after every bundle's rows went through */
        WOperator *op = L->built[i].op;
        if (op->ops->pre_snapshot) {
            WOperator *prev = wop_time_enter(&L->ctx, op);
            op->ops->pre_snapshot(op);
            wop_time_leave(&L->ctx, prev);
        }
    }
    lane_fail(L);
    if (L->err.set) return;
    if (!wckpt_lane_snapshot(j->ck, &j->ckv[L->index], id, now_us() - L->ck_start_us, SIM_NOW(j),
                             &L->err)) {
        lane_fail(L);
        return;
    }
    job_wake_all(j);            /* the last acknowledgement completed it: the others commit, stop */
    int stop = wckpt_stop_state(j->ck, id);
    ck_leave(L);
    if (!wckpt_lane_commit(j->ck, &j->ckv[L->index], &L->ck_committed, &L->err)) { lane_fail(L); return; }
    if (stop == 1) L->stop_wait = id;
    else if (stop >= 2) ck_apply_stop(L, stop);
}

static void ck_view(Lane *L, WCkptLane *v)
{
    WJob *j = L->job;
    memset(v, 0, sizeof *v);
    v->index = L->index;
    v->registry = &L->registry;
    v->srcs = wcalloc((size_t)(L->nsrc ? L->nsrc : 1), sizeof(WCkptSource));
    for (int i = 0; i < L->nsrc; i++)
        v->srcs[v->nsrc++] = (WCkptSource){L->srcs[i].rel, L->srcs[i].src, &L->srcs[i].done, &L->srcs[i].values_next};
    v->rels = wcalloc((size_t)(L->nbuilt ? L->nbuilt : 1), sizeof(WRel *));
    v->ops = wcalloc((size_t)(L->nbuilt ? L->nbuilt : 1), sizeof(WOperator *));
    v->sink_rels = wcalloc((size_t)(L->nbuilt ? L->nbuilt : 1), sizeof(WRel *));
    v->sinks = wcalloc((size_t)(L->nbuilt ? L->nbuilt : 1), sizeof(WSink *));
    for (int i = 0; i < L->nbuilt; i++) {
        /* the operators a sink adds (enforcer, timestamp inserter, end writer) keep no state */
        int k = L->built[i].stream_op;
        if (k >= 0 && j->graph->ops[k].role != WSOP_OPERATOR) continue;
        v->rels[v->nops] = L->built[i].rel;
        v->ops[v->nops++] = L->built[i].op;
        if (L->built[i].rel->kind == WR_SINK) {
            SinkOp *so = (SinkOp *)L->built[i].op;
            if (!so->is_collect && so->sink) {
                v->sink_rels[v->nsinks] = L->built[i].rel;
                v->sinks[v->nsinks++] = so->sink;
            }
        }
    }
    v->recv = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(WCkptRecv));
    for (int x = 0; x < j->nexch; x++)
        if (L->recv[x]) v->recv[v->nrecv++] = (WCkptRecv){j->exch[x], L->recv[x]->nfrom, L->recv[x]->wm};
}

static void ck_view_free(WCkptLane *v)
{
    free(v->srcs);
    free(v->rels);
    free(v->ops);
    free(v->sink_rels);
    free(v->sinks);
    free(v->recv);
}

/* Exchanges upstream of exchange x's sender within a lane (stopping at exchanges). */
static void ck_collect_deps(WJob *j, const WRel *r, int x)
{
    for (int i = 0; i < r->ninputs; i++) {
        const WRel *in = r->inputs[i];
        int y = -1;
        if (in->kind != WR_EXCHANGE) {
            /* a scan at its own parallelism: the exchange behind it (build.c), unless that is x */
            y = wjob_scan_exchange(j, in);
            if (y < 0 || y == x) { ck_collect_deps(j, in, x); continue; }
        } else {
            for (int k = 0; k < j->nexch; k++) if (j->exch[k] == in) y = k;
        }
        if (y < 0) continue;
        bool have = false;
        for (int d = 0; d < j->exch_ndeps[x]; d++) have |= j->exch_deps[x][d] == y;
        if (have) continue;
        j->exch_deps[x] = wrealloc(j->exch_deps[x], sizeof(int) * (size_t)(j->exch_ndeps[x] + 1));
        j->exch_deps[x][j->exch_ndeps[x]++] = y;
    }
}

/* After build: barrier routing, lane views, transactional sinks, restore. */
static bool ck_setup(WJob *j, WError *perr)
{
    j->ckv = wcalloc((size_t)j->nlanes, sizeof(WCkptLane));
    for (int l = 0; l < j->nlanes; l++) {
        j->lanes[l].ck_sent = wcalloc((size_t)(j->nexch ? j->nexch : 1), sizeof(bool));
        ck_view(&j->lanes[l], &j->ckv[l]);
    }
    for (int i = 0; i < j->nsinks; i++) j->sinks[i]->transactional = wckpt_transactional(j->ck);
    WError e;
    werr_clear(&e);
    int64_t sim = 0;
    if (!wckpt_restore(j->ck, j->ckv, j->nlanes, &sim, &e)) {
        if (perr && !perr->set) *perr = e;
        return false;
    }
    for (int l = 0; l < j->nlanes; l++)
        if (j->lanes[l].err.set) {
            if (perr && !perr->set) *perr = j->lanes[l].err;
            return false;
        }
    if (j->clock->kind == WPROC_CLOCK_STEP && sim > 0) wproc_clock_resume(j->clock, sim);
    return true;
}

/* Publish the metrics of every operator of lane L (exec/operator.h: state sizes are read
   by the thread running the lane only). `force`: now; else at most every 100 ms. */
static void lane_publish(Lane *L, bool force)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (!force && now - L->published_ms < 100) return;
    L->published_ms = now;
    for (int i = 0; i < L->nbuilt; i++) {
        wop_publish_metrics(L->built[i].op);
        winsight_publish(L->built[i].op, now, force);
    }
    for (int x = 0; x < L->job->nexch; x++)
        if (L->send[x]) winsight_publish(L->send[x], now, force);
}

static void *lane_main(void *arg)
{
    Lane *L = arg;
    WJob *j = L->job;
    worker_acquire(j);
    int active = L->nsrc;
    lane_tick(L);       /* first ProcTime mini-batch boundaries before any row (see lane_tick) */
    while (!job_failed(j) && !wexec_cancelled(&L->ctx) && !wexec_cancelled(&j->ctx)) {
        bool progress = false;
        L->pumped_full = false;
        lane_publish(L, false);
        ck_step(L);
        /* stopped with a savepoint by this step: no source reads past the savepoint's positions
           (one more chunk here went to the sinks beyond the offsets committed to the group:
           tests/kafka/handover_flink.sh saw Flink read those records again) */
        if (job_failed(j)) break;
        if (active > 0) {
            int64_t ck_before = L->ck_id;
            active = lane_pump(L);
            /* paused sources: sleep until woken. But a checkpoint entered inside the pump (a send
               into a full inbox works off this lane's own inbox, which may hold the first barrier:
               ck_barrier) has barriers of its own to forward first: ck_step must run before the
               lane sleeps, or every lane waits for this one's barrier and none wakes it (the
               exactly_once gap hang: four lanes asleep, lane 1 in checkpoint 3 with nothing sent) */
            progress = (!L->ck_id && !L->stop_wait) || L->ck_id != ck_before;
        }
        /* Fairness: while the lane's own sources keep reading rows, it takes about one message
           per other lane before reading its sources again, so that with a downstream subtask that
           cannot keep up every source subtask gets its share (as Flink's tasks, each with its own
           thread, would); otherwise an inbox that the other lanes keep full would starve the
           lane's own sources. Without rows of its own it works off the whole inbox. */
        if (lane_drain(L, 0, L->pumped_rows ? j->nlanes - 1 : -1)) progress = true;
        /* the senders gather while the sources give full chunks; otherwise nothing waits there */
        if (!L->pumped_full) lane_flush_senders(L);
        if (active == 0 && !j->stop_at_end && lane_receivers_done(L)) {
            pthread_mutex_lock(&L->mu);
            bool empty = L->head == NULL;
            pthread_mutex_unlock(&L->mu);
            if (empty && !L->ck_id && (!j->ck || wckpt_lane_may_end(j->ck, L->index, L->ck_done))) break;
        }
        if (!progress) {
            lane_publish(L, false);
            /* lane 0 triggers checkpoints and expires them: it sleeps until the next is due */
            int64_t timeout = L->index == 0 && j->ck ? wckpt_wait_ms(j->ck, wexec_now(&L->ctx)) : -1;
            if (timeout != 0) lane_wait(L, 0, timeout);
        }
    }
    /* Stopped with a savepoint: the lane that completed it set `stopped`, and the others may leave
       the loop before their next ck_step; each commits the savepoint for its own sinks and sources
       (files, transactions, offsets to the consumer group) before it ends */
    if (j->ck && !L->err.set && atomic_load_explicit(&j->stopped, memory_order_acquire) &&
        !atomic_load_explicit(&j->failed, memory_order_acquire))
        (void)wckpt_lane_commit(j->ck, &j->ckv[L->index], &L->ck_committed, &L->err);   /* L->err: lane_fail */
    worker_release(j);
    lane_fail(L);
    /* wake the others so that they notice a failure */
    for (int l = 0; l < j->nlanes; l++) {
        pthread_mutex_lock(&j->lanes[l].mu);
        pthread_cond_broadcast(&j->lanes[l].cv);
        pthread_mutex_unlock(&j->lanes[l].mu);
    }
    return NULL;
}

bool wjob_run(WJob *j)
{
    for (int l = 0; l < j->nlanes; l++) lane_publish(&j->lanes[l], true);     /* before any lane runs */
    if (j->nlanes == 1) {
        Lane *L = &j->lanes[0];
        __atomic_store_n(&L->ctx.cancelled, false, __ATOMIC_RELAXED);
        int active = L->nsrc;
        lane_tick(L);
        /* under stop-at-end the lane goes on until the savepoint has stopped the job */
        while ((active > 0 || j->stop_at_end) && !L->err.set && !wexec_cancelled(&L->ctx) && !wexec_cancelled(&j->ctx) &&
               !job_failed(j)) {
            if (active > 0) active = lane_pump(L);
            lane_flush_senders(L);
            ck_step(L);         /* checkpoints at chunk boundaries */
            lane_publish(L, false);
        }
    } else {
        /* Before the lanes start, read one chunk of every source: a subtask whose source split is
           empty ends at once, so its end (and maximal watermark) reaches every receiver before
           any data does, and the event-time results do not depend on thread timing. */
        for (int l = 0; l < j->nlanes && !j->failed; l++) {
            Lane *L = &j->lanes[l];
            for (int i = 0; i < L->nsrc; i++) {
                SourceSlot *s = &L->srcs[i];
                bool more;
                if (!s->src) {
                    more = l == 0 && wrel_values(s->rel)->nrows > 0;
                } else {
                    wchunk_reset(s->chunk);
                    WSourceStatus st = s->src->next(s->src, s->chunk, &L->err);
                    if (st == WSRC_ERROR) { lane_fail(L); break; }
                    more = st != WSRC_END || s->chunk->nrows > 0;
                    if (s->chunk->nrows) s->pending = true;
                    else if (st != WSRC_END) more = true;
                    if (st == WSRC_END && s->chunk->nrows) s->pending = true;
                }
                if (!more) source_ended(L, s);
            }
        }
        int64_t nw = sysconf(_SC_NPROCESSORS_ONLN);
        WError tmp;
        werr_clear(&tmp);
        if (j->env.config) wopts_get_long(j->env.config, "weir.exec.worker-threads", nw, &nw, &tmp);
        if (nw < 1) nw = 1;
        j->limit_workers = nw < j->nlanes;
        if (j->limit_workers) sem_init(&j->workers, 0, (unsigned)nw);
        for (int l = 0; l < j->nlanes; l++) pthread_create(&j->lanes[l].thread, NULL, lane_main, &j->lanes[l]);
        for (int l = 0; l < j->nlanes; l++) pthread_join(j->lanes[l].thread, NULL);
        if (j->limit_workers) sem_destroy(&j->workers);
    }
    /* the lanes are done (joined): the final figures for readers */
    for (int l = 0; l < j->nlanes; l++) lane_publish(&j->lanes[l], true);
    for (int l = 0; l < j->nlanes; l++) {
        if (j->lanes[l].err.set) {
            if (!j->err.set) j->err = j->lanes[l].err;
        }
    }
    /* checkpoints: the final checkpoint or savepoint, sink commits, retention */
    if (j->ck) {
        bool ok = !j->err.set && !wexec_cancelled(&j->ctx);
        WError e;
        werr_clear(&e);
        if (!wckpt_finish(j->ck, j->ckv, j->nlanes, ok, SIM_NOW(j), &e) && !j->err.set) j->err = e;
    }
    return !j->err.set;
}

void wjob_cancel(WJob *j)
{
    wexec_cancel(&j->ctx);
    for (int l = 0; l < j->nlanes; l++) wexec_cancel(&j->lanes[l].ctx);
    job_wake_all(j);            /* after the flags: a lane asleep in lane_wait sees them */
}

void wjob_free(WJob *j)
{
    if (!j) return;
    for (int l = 0; l < j->nlanes; l++) {
        Lane *L = &j->lanes[l];
        for (int i = 0; i < L->nsrc; i++) {
            if (L->srcs[i].src && L->srcs[i].src->close) L->srcs[i].src->close(L->srcs[i].src);
            wchunk_free(L->srcs[i].chunk);
        }
        Msg *m = L->head;
        while (m) { Msg *n = m->next; wchunk_free(m->chunk); free(m); m = n; }
        for (m = L->held_head; m; ) { Msg *n = m->next; wchunk_free(m->chunk); free(m); m = n; }
        free(L->registry.items);
        free(L->ck_sent);
        if (j->ckv) ck_view_free(&j->ckv[l]);
        free(L->srcs);
        free(L->built);
        free(L->recv);
        free(L->send);
        free(L->qcount);
        free(L->room_waiters);
        free(L->wake_list);
        pthread_mutex_destroy(&L->mu);
        pthread_cond_destroy(&L->cv);
    }
    for (int i = 0; i < j->nsinks; i++) if (j->sinks[i]->close) j->sinks[i]->close(j->sinks[i]);
    for (int i = 0; i < j->nshared; i++) {
        WSinkShared *sh = j->shared[i];
        if (sh->free_runtime) sh->free_runtime(sh->runtime);
        if (sh->free_data) sh->free_data(sh->data);
        pthread_mutex_destroy(&sh->mu);
        free(sh);
    }
    free(j->shared);
    free(j->shared_rel);
    for (int i = 0; i < j->nops; i++) wop_free(j->ops[i]);
    free(j->ops);
    free(j->sinks);
    free(j->lanes);
    free(j->ckv);
    for (int x = 0; j->exch_deps && x < j->nexch; x++) free(j->exch_deps[x]);
    free(j->exch_deps);
    free(j->exch_ndeps);
    free(j->exch_rank);
    free(j->exch);
    wjobgraph_free(j->graph);
    free(j->run_par);
    free(j->exch_send_p);
    free(j->exch_recv_p);
    free(j->exch_rebalance);
    wckpt_free(j->ck);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

/* The built operator (index into every lane's `built`) of job-graph operator k, -1 when none. */
static int built_of(const WJob *j, int k)
{
    const Lane *L0 = &j->lanes[0];
    for (int i = 0; i < L0->nbuilt; i++) if (L0->built[i].stream_op == k) return i;
    return -1;
}

/* The job's operators in job-graph order (the nodes of EXPLAIN's JSON execution plan), each
   with its totals over all lanes (and per subtask when the job runs in several). */
void wjob_report(const WJob *j, WStrBuf *out)
{
    for (int k = 0; j->graph && k < j->graph->nops; k++) {
        int i = built_of(j, k);
        if (i < 0) continue;
        WOperator *op = j->lanes[0].built[i].op;
        long long in = 0, outr = 0, late = 0;
        for (int l = 0; l < j->nlanes; l++) {
            WOperator *o = j->lanes[l].built[i].op;
            in += o->rows_in;
            outr += o->rows_out;
            late += o->late_dropped;
        }
        wsb_printf(out, "%s: rows_in=%lld rows_out=%lld", op->name, in, outr);
        if (late) wsb_printf(out, " numLateRecordsDropped=%lld", late);
        int np = wjob_run_par(j, k);        /* the subtasks that run it (the lanes after are idle copies) */
        if (np > 1) {
            wsb_append(out, " subtasks_rows_in=[");
            for (int l = 0; l < np; l++)
                wsb_printf(out, "%s%lld", l ? "," : "", (long long)j->lanes[l].built[i].op->rows_in);
            wsb_putc(out, ']');
        }
        for (int l = 0; l < np; l++) {
            WOperator *o = j->lanes[l].built[i].op;
            if (!o->ops->metrics) continue;
            char buf[1024];
            wop_metrics_text(o, buf, sizeof buf);
            if (buf[0]) {
                if (np > 1) wsb_printf(out, " [%d] %s", l, buf);
                else wsb_printf(out, " %s", buf);
            }
        }
        wsb_putc(out, '\n');
        wjob_insight_report(j, i, out);
    }
    for (int l = 0; l < j->nlanes; l++) {
        const Lane *L = &j->lanes[l];
        for (int i = 0; i < L->nsrc; i++)
            if (L->srcs[i].src && L->srcs[i].src->rows_skipped)
                wsb_printf(out, "%s: rows skipped (csv.ignore-parse-errors)=%lld\n", L->srcs[i].head->name,
                           (long long)L->srcs[i].src->rows_skipped);
    }
    wckpt_report(j->ck, out);
}

const WJobGraph *wjob_graph(const WJob *j) { return j ? j->graph : NULL; }

int wjob_stream_op_built(const WJob *j, int k) { return j ? built_of(j, k) : -1; }

int wjob_node_stream_op(const WJob *j, int i)
{
    return j && i >= 0 && i < j->lanes[0].nbuilt ? j->lanes[0].built[i].stream_op : -1;
}

int64_t wjob_rows_skipped(const WJob *j)
{
    int64_t n = 0;
    for (int l = 0; l < j->nlanes; l++)
        for (int i = 0; i < j->lanes[l].nsrc; i++)
            if (j->lanes[l].srcs[i].src) n += j->lanes[l].srcs[i].src->rows_skipped;
    return n;
}

const WError *wjob_error(const WJob *j) { return &j->err; }

int wjob_node_count(const WJob *j) { return j ? j->lanes[0].nbuilt : 0; }

const WRel *wjob_node_rel(const WJob *j, int i)
{
    return j && i >= 0 && i < j->lanes[0].nbuilt ? j->lanes[0].built[i].rel : NULL;
}

const WOperator *wjob_node_op(const WJob *j, int i)
{
    return j && i >= 0 && i < j->lanes[0].nbuilt ? j->lanes[0].built[i].op : NULL;
}

int wjob_parallelism(const WJob *j) { return j ? j->nlanes : 0; }

const WCkpt *wjob_checkpoints(const WJob *j) { return j && wckpt_live(j->ck) ? j->ck : NULL; }

int64_t wjob_trigger_savepoint(WJob *j, const char *target_dir, bool stop_after, bool drain, WError *err)
{
    if (!j || !j->ck) {
        werr_set(err, "java.lang.IllegalStateException", "The job cannot take savepoints.");
        return 0;
    }
    int64_t req = wckpt_request_savepoint(j->ck, target_dir, stop_after, drain, err);
    if (req) lane_wake(&j->lanes[0]);       /* lane 0 triggers it (ck_step) */
    return req;
}

bool wjob_savepoint_status(const WJob *j, int64_t request, WCkptRequest *out)
{
    return j && wckpt_request_status(j->ck, request, out);
}

bool wjob_stopped(const WJob *j) { return j && atomic_load_explicit(&j->stopped, memory_order_acquire) != 0; }

const WOperator *wjob_node_input_sender(const WJob *j, int i, int input, int subtask)
{
    if (!j || subtask < 0 || subtask >= j->nlanes || i < 0 || i >= j->lanes[0].nbuilt) return NULL;
    const WRel *r = j->lanes[0].built[i].rel;
    if (!r || input < 0 || input >= r->ninputs || r->inputs[input]->kind != WR_EXCHANGE) return NULL;
    for (int x = 0; x < j->nexch; x++)
        if (j->exch[x] == r->inputs[input]) return j->lanes[subtask].send ? j->lanes[subtask].send[x] : NULL;
    return NULL;
}

const WOperator *wjob_node_subtask_op(const WJob *j, int i, int subtask)
{
    if (!j || subtask < 0 || subtask >= j->nlanes || i < 0 || i >= j->lanes[subtask].nbuilt) return NULL;
    return j->lanes[subtask].built[i].op;
}
