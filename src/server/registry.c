/*
 * registry.c — job registry, background executor and metrics sampler. See registry.h.
 */
#include "registry.h"
#include "insight_advice.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../exec/insight.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *const STATE_NAMES[WJS__COUNT] = {
    "INITIALIZING", "CREATED", "RUNNING", "FAILING", "FAILED", "CANCELLING",
    "CANCELED", "FINISHED", "RESTARTING", "SUSPENDED", "RECONCILING"};

const char *wjob_state_name(WJobState s)
{
    return (unsigned)s < WJS__COUNT ? STATE_NAMES[s] : "UNKNOWN";
}

bool wjob_state_terminal(WJobState s)
{
    return s == WJS_FAILED || s == WJS_CANCELED || s == WJS_FINISHED || s == WJS_SUSPENDED;
}

int64_t wregistry_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void wregistry_lock(WRegistry *r) { pthread_mutex_lock(&r->mu); }
void wregistry_unlock(WRegistry *r) { pthread_mutex_unlock(&r->mu); }

static uint64_t next_rand(WRegistry *r)
{
    uint64_t x = r->rng += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void wregistry_new_id(WRegistry *r, char out[33])
{
    pthread_mutex_lock(&r->mu);
    uint64_t a = next_rand(r), b = next_rand(r);
    pthread_mutex_unlock(&r->mu);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

WRegJob *wregistry_find(WRegistry *r, const char *id)
{
    if (!id) return NULL;
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->jobs[i]->id, id) == 0) return r->jobs[i];
    return NULL;
}

static void set_state(WRegJob *j, WJobState s)
{
    j->state = s;
    if (!j->ts[s]) j->ts[s] = wregistry_now();
}

static void read_op(const WOperator *op, WOpStats *out)
{
    memset(out, 0, sizeof *out);
    out->watermark = INT64_MIN;
    if (!op) return;
    /* the lane runs on while this is read: counters by atomic loads, the state figures from the
       metrics the lane published (exec/operator.h), never from the state backend itself */
    WOpCounters k;
    wop_read_counters(op, &k);
    out->rows_in = k.rows_in;
    out->rows_out = k.rows_out;
    out->late_dropped = k.late_dropped;
    out->watermark = k.wm;
    out->finished = k.finished;
    out->busy_ns = k.busy_ns;
    out->backpressured_ns = k.backpressured_ns;
    if (op->ops && op->ops->metrics) {
        WOpMetrics m;
        wop_read_metrics(op, &m);
        out->nstates = wregistry_state_metrics(&m, out->states, WREG_MAX_STATES, &out->ttl_expired,
                                               out->metrics, sizeof out->metrics);
    }
}

static void add_stats(WOpStats *sum, const WOpStats *x, bool first)
{
    if (first) {
        *sum = *x;
        return;
    }
    sum->rows_in += x->rows_in;
    sum->rows_out += x->rows_out;
    sum->late_dropped += x->late_dropped;
    sum->busy_ns += x->busy_ns;
    sum->backpressured_ns += x->backpressured_ns;
    if (x->watermark < sum->watermark) sum->watermark = x->watermark;
    sum->finished = sum->finished && x->finished;
    sum->ttl_expired += x->ttl_expired;
    for (int i = 0; i < x->nstates; i++) {
        int k = 0;
        while (k < sum->nstates && strcmp(sum->states[k].name, x->states[i].name) != 0) k++;
        if (k == sum->nstates) {
            if (k == WREG_MAX_STATES) continue;
            sum->states[sum->nstates++] = x->states[i];
        } else {
            sum->states[k].entries += x->states[i].entries;
            sum->states[k].bytes += x->states[i].bytes;
        }
    }
}

static void lane_stats(const WRegJob *j, int op, int lane, WOpStats *out)
{
    if (j->job && j->op_of) {
        read_op(j->op_of[op * j->nlanes + lane], out);
    } else if (j->final) {
        *out = j->final[op * j->nlanes + lane];
    } else {
        memset(out, 0, sizeof *out);
        out->watermark = INT64_MIN;
    }
}

bool wregistry_exchange_insight(const WRegJob *j, int op, int input, int subtask, WInsightSnap *out)
{
    if (!j->graph || op < 0 || op >= j->graph->nops || input < 0 || input >= WREG_XINPUTS || subtask < 0 ||
        subtask >= j->nlanes)
        return false;
    size_t at = (size_t)op * WREG_XINPUTS + (size_t)input;
    if (j->job && j->xsend_of) {
        const WOperator *snd = j->xsend_of[at * (size_t)j->nlanes + (size_t)subtask];
        return snd && winsight_read(snd, out);
    }
    if (j->final_xinsight && j->final_xinsight[at] && j->final_xinsight[at][subtask].exchange) {
        *out = j->final_xinsight[at][subtask];
        return true;
    }
    return false;
}

bool wregistry_op_insight(const WRegJob *j, int op, int subtask, WInsightSnap *out)
{
    if (!j->graph || op < 0 || op >= j->graph->nops || subtask < 0 || subtask >= j->nlanes) return false;
    size_t at = (size_t)op * (size_t)j->nlanes + (size_t)subtask;
    if (j->job && j->op_of) return j->op_of[at] && winsight_read(j->op_of[at], out);
    if (j->final_insight && j->final_has_insight[at]) {
        *out = j->final_insight[at];
        return true;
    }
    return false;
}

void wregistry_op_stats(const WRegJob *j, int op, int subtask, WOpStats *out)
{
    memset(out, 0, sizeof *out);
    out->watermark = INT64_MIN;
    if (!j->graph || op < 0 || op >= j->graph->nops || j->nlanes <= 0) return;
    if (subtask >= 0) {
        if (subtask < j->nlanes) lane_stats(j, op, subtask, out);
        return;
    }
    if (subtask < -1) return;   /* a subtask weir does not run */
    for (int l = 0; l < j->nlanes; l++) {
        WOpStats x;
        lane_stats(j, op, l, &x);
        add_stats(out, &x, l == 0);
    }
}

/* Records into / out of vertex v's subtask and the sums of its operators' times, in one pass over
   its operators. */
static WRegVertexSample vertex_sample(const WRegJob *j, int v, int subtask, int64_t now)
{
    const WJobGraph *g = j->graph;
    const WJobVertex *vx = &g->vertices[v];
    WRegVertexSample s = {.t = now};
    for (int k = 0; k < vx->nops; k++) {
        int op = vx->ops[k];
        const WStreamOp *so = &g->ops[op];
        WOpStats st;
        wregistry_op_stats(j, op, subtask, &st);
        s.busy_ns += st.busy_ns;
        s.backpressured_ns += st.backpressured_ns;
        bool ext_in = false, ext_out = false;
        for (int e = 0; e < so->ninputs; e++)
            if (g->ops[so->inputs[e].from].vertex != v) ext_in = true;
        for (int c = 0; c < g->nops; c++)
            for (int e = 0; e < g->ops[c].ninputs; e++)
                if (g->ops[c].inputs[e].from == op && g->ops[c].vertex != v) ext_out = true;
        if (so->is_source) s.read += st.rows_out;   /* Flink 2.3: a source task's numRecordsIn */
        else if (ext_in) s.read += st.rows_in;
        if (ext_out) s.write += st.rows_out;   /* a sink's rows out: a compacting file writer's messages */
    }
    return s;
}

void wregistry_vertex_records(const WRegJob *j, int v, int subtask, int64_t *read, int64_t *write)
{
    WRegVertexSample s = vertex_sample(j, v, subtask, 0);
    *read = s.read;
    *write = s.write;
}

/* The ring of rate samples of vertex v's subtask l. */
static WRegVertexSample *vsample_ring(const WRegJob *j, int v, int l)
{
    return &j->vsamples[((size_t)v * (size_t)j->nlanes + (size_t)l) * WREG_RATE_SAMPLES];
}

void wregistry_vertex_times(const WRegJob *j, int v, int subtask, int64_t now, WRegVertexTimes *out)
{
    memset(out, 0, sizeof *out);
    if (!j->graph || v < 0 || v >= j->graph->nvertices || subtask < 0 || subtask >= j->nlanes) return;
    WRegVertexSample cur = vertex_sample(j, v, subtask, now);
    int64_t since = j->ts[WJS_RUNNING] ? j->ts[WJS_RUNNING] : j->start_ms;
    int64_t until = j->end_ms > 0 ? j->end_ms : now;
    out->read = cur.read;
    out->write = cur.write;
    out->busy_ms = cur.busy_ns / 1000000;
    out->backpressured_ms = cur.backpressured_ns / 1000000;
    int64_t idle = until - since - out->busy_ms - out->backpressured_ms;
    out->idle_ms = idle > 0 ? idle : 0;
    /* rates from the oldest sample of the ring (at most WREG_RATE_SAMPLES seconds back) to now; a
       job younger than its first sample counts from its start, when every counter was 0 */
    WRegVertexSample start = {.t = since};
    const WRegVertexSample *oldest = NULL, *newest = &cur;
    if (j->vsamples) {
        const WRegVertexSample *ring = vsample_ring(j, v, subtask);
        for (int k = 0; k < WREG_RATE_SAMPLES; k++)
            if (ring[k].t && ring[k].t < now && (!oldest || ring[k].t < oldest->t)) oldest = &ring[k];
    }
    if (!oldest) oldest = &start;
    if (j->end_ms > 0) cur.t = j->end_ms < cur.t ? j->end_ms : cur.t;
    if (newest->t <= oldest->t) return;
    double span = (double)(newest->t - oldest->t);
    out->has_rates = true;
    out->busy_per_s = (double)(newest->busy_ns - oldest->busy_ns) / 1e6 / span * 1000.0;
    out->backpressured_per_s = (double)(newest->backpressured_ns - oldest->backpressured_ns) / 1e6 / span * 1000.0;
    if (out->busy_per_s > 1000) out->busy_per_s = 1000;
    if (out->backpressured_per_s > 1000 - out->busy_per_s) out->backpressured_per_s = 1000 - out->busy_per_s;
    out->idle_per_s = 1000 - out->busy_per_s - out->backpressured_per_s;
    out->records_in_per_s = (double)(newest->read - oldest->read) / span * 1000.0;
    out->records_out_per_s = (double)(newest->write - oldest->write) / span * 1000.0;
}

/* an operator's metrics show at most WOP_METRICS_STATES states (the rest summed in the last):
   a subtask's all fit */
_Static_assert(WREG_MAX_STATES >= WOP_METRICS_STATES, "room for every state line of an operator");

int wregistry_state_metrics(const WOpMetrics *m, WStateMetric *out, int max, int64_t *ttl_expired,
                            char *rest, size_t restsz)
{
    if (ttl_expired) *ttl_expired = 0;
    if (rest && restsz) rest[0] = 0;
    if (!m) return 0;
    int n = 0;
    for (int i = 0; i < m->nstates && n < max; i++) {
        snprintf(out[n].name, sizeof out[n].name, "%s", m->states[i].name);
        out[n].entries = m->states[i].entries;
        out[n].bytes = m->states[i].bytes;
        n++;
    }
    size_t rlen = 0;
    for (int i = 0; i < m->nvalues; i++) {
        if (!strcmp(m->values[i].name, "ttlExpiredRecords")) {
            if (ttl_expired) *ttl_expired = m->values[i].value;
            continue;
        }
        if (!rest || rlen >= restsz) continue;
        int w = snprintf(rest + rlen, restsz - rlen, "%s%s=%lld", rlen ? " " : "", m->values[i].name,
                         (long long)m->values[i].value);
        if (w < 0 || (size_t)w >= restsz - rlen) {     /* cut: keep the whole metrics before it */
            rest[rlen] = 0;
            rlen = restsz;
        } else {
            rlen += (size_t)w;
        }
    }
    return n;
}

/* ------------------------------------------------------------------ entries */

static WRegJob *add_entry(WRegistry *r, const char *id, const char *name, const WOptions *session_config)
{
    WRegJob *j = wcalloc(1, sizeof *j);
    snprintf(j->id, sizeof j->id, "%s", id);
    j->name = wstrdup(name ? name : "");
    wopts_init(&j->config);
    werr_clear(&j->error);
    if (r->cfg) wopts_copy(&j->config, &r->cfg->opts);
    if (session_config)
        for (int i = 0; i < session_config->n; i++)
            wopts_set(&j->config, session_config->items[i].key, session_config->items[i].value);
    j->start_ms = wregistry_now();
    j->end_ms = -1;
    j->ts[WJS_INITIALIZING] = j->ts[WJS_CREATED] = j->start_ms;
    j->state = WJS_CREATED;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->jobs = wrealloc(r->jobs, sizeof(WRegJob *) * (size_t)r->cap);
    }
    r->jobs[r->n++] = j;
    return j;
}

static void free_entry(WRegJob *j)
{
    free(j->name);
    wopts_free(&j->config);
    for (int x = 0; j->final_xinsight && j->graph && x < j->graph->nops * WREG_XINPUTS; x++) free(j->final_xinsight[x]);
    free(j->final_xinsight);
    free(j->xsend_of);
    wjobgraph_free(j->graph);
    free(j->op_of);
    free(j->final);
    free(j->final_insight);
    free(j->final_has_insight);
    free(j->last_change);
    free(j->last_rows);
    free(j->vsamples);
    free(j->failure);
    free(j->ckpts);
    free(j->savepoints);
    free(j);
}

/* (locked) The job graph and the operator of every subtask, while the plan is alive. */
static void attach(WRegJob *j, WJob *job)
{
    int nn = wjob_node_count(job);
    WRel **sinks = wcalloc((size_t)(nn ? nn : 1), sizeof(WRel *));
    int nsinks = 0;
    for (int i = 0; i < nn; i++) {
        const WRel *rel = wjob_node_rel(job, i);
        if (rel && rel->kind == WR_SINK) sinks[nsinks++] = (WRel *)rel;
    }
    j->graph = nsinks ? wjobgraph_build(sinks, nsinks, &j->config) : NULL;
    free(sinks);
    j->nlanes = wjob_parallelism(job);
    if (j->nlanes < 1) j->nlanes = 1;
    if (j->graph) {
        size_t nops = (size_t)(j->graph->nops ? j->graph->nops : 1);
        j->op_of = wcalloc(nops * (size_t)j->nlanes, sizeof(WOperator *));
        j->xsend_of = wcalloc(nops * WREG_XINPUTS * (size_t)j->nlanes, sizeof(WOperator *));
        j->last_change = wcalloc(nops, sizeof(int64_t));
        j->last_rows = wcalloc(nops, sizeof(int64_t));
        j->vsamples = wcalloc((size_t)(j->graph->nvertices ? j->graph->nvertices : 1) * (size_t)j->nlanes *
                                  WREG_RATE_SAMPLES, sizeof *j->vsamples);
        j->unbounded = wjob_unbounded(job);
        for (int k = 0; k < j->graph->nops; k++) {
            const WStreamOp *so = &j->graph->ops[k];
            j->last_change[k] = j->start_ms;
            /* the runtime built one operator per stream operator of the same graph */
            int i = wjob_stream_op_built(job, k);
            (void)so;
            for (int l = 0; i >= 0 && l < j->nlanes; l++) j->op_of[k * j->nlanes + l] = wjob_node_subtask_op(job, i, l);
            for (int in = 0; i >= 0 && in < WREG_XINPUTS; in++)
                for (int l = 0; l < j->nlanes; l++)
                    j->xsend_of[((size_t)k * WREG_XINPUTS + (size_t)in) * (size_t)j->nlanes + (size_t)l] =
                        wjob_node_input_sender(job, i, in, l);
        }
    }
    j->job = job;
}

/* (locked) Keep the final operator counters and detach the job from the entry. */
static void detach(WRegJob *j)
{
    if (j->graph && j->op_of) {
        size_t n = (size_t)j->graph->nops * (size_t)j->nlanes;
        j->final = wcalloc(n ? n : 1, sizeof(WOpStats));
        for (int k = 0; k < j->graph->nops; k++)
            for (int l = 0; l < j->nlanes; l++) lane_stats(j, k, l, &j->final[k * j->nlanes + l]);
        WInsightSnap *ins = wcalloc(n ? n : 1, sizeof *ins);
        bool *has = wcalloc(n ? n : 1, sizeof *has);
        for (size_t x = 0; x < n; x++) has[x] = j->op_of[x] && winsight_read(j->op_of[x], &ins[x]);
        j->final_insight = ins;
        j->final_has_insight = has;
        /* the hash exchanges' senders: kept only for the inputs that have one */
        size_t nx = (size_t)j->graph->nops * WREG_XINPUTS;
        j->final_xinsight = wcalloc(nx ? nx : 1, sizeof *j->final_xinsight);
        for (size_t x = 0; j->xsend_of && x < nx; x++) {
            const WOperator **snd = &j->xsend_of[x * (size_t)j->nlanes];
            bool any = false;
            for (int l = 0; l < j->nlanes; l++) any |= snd[l] != NULL;
            if (!any) continue;
            j->final_xinsight[x] = wcalloc((size_t)j->nlanes, sizeof **j->final_xinsight);
            for (int l = 0; l < j->nlanes; l++)
                if (snd[l]) winsight_read(snd[l], &j->final_xinsight[x][l]);
        }
    }
    if (j->job && wjob_checkpoints(j->job)) {
        free(j->ckpts);
        j->ckpts = NULL;
        j->nckpts = wregistry_ckpt_stats(j, &j->ckpts);
        if (j->nckpts < 0) j->nckpts = 0;
        j->ckpt_kept = true;
    }
    for (int64_t q = 1;; q++) {
        WCkptRequest rq;
        if (!j->job || !wjob_savepoint_status(j->job, q, &rq)) break;
        j->savepoints = wrealloc(j->savepoints, sizeof(WCkptRequest) * (size_t)(j->nsavepoints + 1));
        j->savepoints[j->nsavepoints++] = rq;
    }
    free(j->op_of);
    j->op_of = NULL;
    free(j->xsend_of);
    j->xsend_of = NULL;
    j->job = NULL;
    j->arena = NULL;
}

int wregistry_ckpt_stats(const WRegJob *j, WCkptStats **out)
{
    *out = NULL;
    const WCkpt *c = j->job ? wjob_checkpoints(j->job) : NULL;
    if (!c) {
        if (!j->ckpt_kept) return -1;
        if (j->nckpts) {
            *out = wmalloc(sizeof(WCkptStats) * (size_t)j->nckpts);
            memcpy(*out, j->ckpts, sizeof(WCkptStats) * (size_t)j->nckpts);
        }
        return j->nckpts;
    }
    int n = wckpt_stats_count(c);
    if (n <= 0) return 0;
    *out = wmalloc(sizeof(WCkptStats) * (size_t)n);
    int k = 0;
    while (k < n && wckpt_stats_get(c, k, &(*out)[k])) k++;
    return k;
}

int64_t wregistry_savepoint(WRegistry *r, const char *id, const char *dir, bool stop, bool drain, WError *err)
{
    wregistry_lock(r);
    WRegJob *j = wregistry_find(r, id);
    int64_t res = -1;
    if (j && j->job && !wjob_state_terminal(j->state) && j->state != WJS_CANCELLING)
        res = wjob_trigger_savepoint(j->job, dir, stop, drain, err);
    wregistry_unlock(r);
    return res;
}

bool wregistry_savepoint_status(WRegistry *r, const char *id, int64_t request, WCkptRequest *out)
{
    wregistry_lock(r);
    WRegJob *j = wregistry_find(r, id);
    bool ok = false;
    if (j && j->job) ok = wjob_savepoint_status(j->job, request, out);
    else if (j && request >= 1 && request <= j->nsavepoints) {
        *out = j->savepoints[request - 1];
        ok = true;
    }
    wregistry_unlock(r);
    return ok;
}

/* (locked) The end of a run: the final state. */
static void finish(WRegistry *r, WRegJob *j, bool ok, const WError *err)
{
    bool cancelled = j->state == WJS_CANCELLING;
    detach(j);
    if (cancelled) {
        set_state(j, WJS_CANCELED);
    } else if (!ok) {
        if (err) j->error = *err;
        free(j->failure);
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "%s: %s", err && err->cls[0] ? err->cls : "org.apache.flink.runtime.JobException",
                   err && err->msg[0] ? err->msg : "The job failed.");
        j->failure = wsb_detach(&s);
        j->failure_ms = wregistry_now();
        set_state(j, WJS_FAILING);
        set_state(j, WJS_FAILED);
    } else {
        set_state(j, WJS_FINISHED);
    }
    j->end_ms = wregistry_now();
    j->tid = 0;
    pthread_cond_broadcast(&r->cv);
    fprintf(stderr, "weir: job %s (%s) %s\n", j->id, j->name, wjob_state_name(j->state));
    fflush(stderr);
}

/* ------------------------------------------------------------------ executor */

typedef struct RunArg {
    WRegistry *r;
    WRegJob *j;
} RunArg;

static void *job_thread(void *arg)
{
    RunArg *ra = arg;
    WRegistry *r = ra->r;
    WRegJob *j = ra->j;
    free(ra);
    pthread_setname_np(pthread_self(), "weir-job");
    pthread_mutex_lock(&r->mu);
    j->tid = (pid_t)syscall(SYS_gettid);
    WJob *job = j->job;
    WArena *arena = j->arena;
    bool cancel_now = j->state == WJS_CANCELLING;
    pthread_mutex_unlock(&r->mu);
    if (cancel_now) wjob_cancel(job);

    bool ok = wjob_run(job);

    pthread_mutex_lock(&r->mu);
    finish(r, j, ok, wjob_error(job));
    pthread_mutex_unlock(&r->mu);
    /* nobody reads the job any more: free it outside the lock */
    wjob_free(job);
    warena_delete(arena);
    pthread_mutex_lock(&r->mu);
    j->released = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static void submit(void *ctx, const char *job_id, const char *job_name, WJob *job, WArena *arena,
                   const WOptions *config)
{
    WRegistry *r = ctx;
    pthread_mutex_lock(&r->mu);
    WRegJob *j = add_entry(r, job_id, job_name, config);
    attach(j, job);
    j->arena = arena;
    set_state(j, WJS_RUNNING);
    fprintf(stderr, "weir: job %s (%s) submitted\n", j->id, j->name);
    fflush(stderr);
    RunArg *ra = wcalloc(1, sizeof *ra);
    ra->r = r;
    ra->j = j;
    int rc = r->stopping ? EAGAIN : pthread_create(&j->thread, NULL, job_thread, ra);
    if (rc == 0) {
        j->has_thread = true;
    } else {
        free(ra);
        WError e;
        werr_clear(&e);
        werr_set(&e, "org.apache.flink.runtime.JobException", "The job could not be started: %s",
                 r->stopping ? "the cluster is stopping" : strerror(rc));
        finish(r, j, false, &e);
    }
    pthread_mutex_unlock(&r->mu);
    if (rc != 0) {
        wjob_free(job);
        warena_delete(arena);
        pthread_mutex_lock(&r->mu);
        j->released = true;
        pthread_mutex_unlock(&r->mu);
    }
}

/* PLAN_ADVICE from job job_id's figures (WJobExecutor.advise). */
static bool advise(void *ctx, const char *job_id, int node_id, void (*add)(void *actx, const char *kind, const char *text),
                   void *actx)
{
    WRegistry *r = ctx;
    pthread_mutex_lock(&r->mu);
    WRegJob *j = wregistry_find(r, job_id);
    if (j && node_id > 0 && add) winsight_advice(j, node_id, add, actx);
    pthread_mutex_unlock(&r->mu);
    return j != NULL;
}

/* Jobs the session runs in its own thread (queries, dml-sync INSERTs). */
static void observe(void *ctx, const char *job_id, const char *job_name, WJob *job, const WOptions *config,
                    bool begin, bool ok)
{
    WRegistry *r = ctx;
    pthread_mutex_lock(&r->mu);
    if (begin) {
        char id[33];
        if (job_id) {
            snprintf(id, sizeof id, "%s", job_id);
        } else {
            uint64_t a = next_rand(r), b = next_rand(r);
            snprintf(id, sizeof id, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
        }
        const char *name = job_name;
        if (!name) name = config ? wopts_get(config, "pipeline.name") : NULL;
        if (!name) name = "collect";
        WRegJob *j = add_entry(r, id, name, config);
        j->is_query = job_id == NULL;
        attach(j, job);
        j->tid = (pid_t)syscall(SYS_gettid);
        j->owner_tid = j->tid;
        set_state(j, WJS_RUNNING);
        if (r->stopping) {
            set_state(j, WJS_CANCELLING);
            wjob_cancel(job);
        }
    } else {
        for (int i = r->n - 1; i >= 0; i--) {
            WRegJob *j = r->jobs[i];
            if (j->job != job) continue;
            finish(r, j, ok, ok ? NULL : wjob_error(job));
            j->released = true;     /* the session frees it right after this call */
            break;
        }
    }
    pthread_mutex_unlock(&r->mu);
}

WJobExecutor *wregistry_executor(WRegistry *r) { return &r->executor; }

int wregistry_cancel(WRegistry *r, const char *id)
{
    pthread_mutex_lock(&r->mu);
    WRegJob *j = wregistry_find(r, id);
    int rc = -1;
    if (j) {
        if (wjob_state_terminal(j->state) || j->state == WJS_CANCELLING) {
            rc = 1;
        } else {
            set_state(j, WJS_CANCELLING);
            if (j->job) wjob_cancel(j->job);
            rc = 0;
        }
    }
    pthread_mutex_unlock(&r->mu);
    return rc;
}

/* ------------------------------------------------------------------ sampler */

static void sample_job(WRegJob *j, int64_t now)
{
    WRegSample s = {.t = now};
    if (j->graph) {
        for (int k = 0; k < j->graph->nops; k++) {
            WOpStats st;
            wregistry_op_stats(j, k, -1, &st);
            const WStreamOp *so = &j->graph->ops[k];
            int64_t total = st.rows_in + st.rows_out;
            if (total != j->last_rows[k]) {
                j->last_rows[k] = total;
                j->last_change[k] = now;
            }
            if (so->role != WSOP_OPERATOR) continue;
            s.rows_in += st.rows_in;
            s.rows_out += st.rows_out;
            if (so->is_source) s.source_out += st.rows_out;
            if (so->is_sink) s.sink_in += st.rows_in;
            for (int i = 0; i < st.nstates; i++) {
                s.state_bytes += st.states[i].bytes;
                s.state_entries += st.states[i].entries;
            }
        }
    }
    if (j->graph && j->vsamples) {
        for (int v = 0; v < j->graph->nvertices; v++)
            for (int l = 0; l < j->nlanes; l++)
                vsample_ring(j, v, l)[j->vsample_next] = vertex_sample(j, v, l, now);
        j->vsample_next = (j->vsample_next + 1) % WREG_RATE_SAMPLES;
    }
    int idx;
    if (j->nhist < WREG_HISTORY) {
        idx = (j->hist_start + j->nhist++) % WREG_HISTORY;
    } else {
        idx = j->hist_start;
        j->hist_start = (j->hist_start + 1) % WREG_HISTORY;
    }
    j->hist[idx] = s;
}

static void *sampler_thread(void *arg)
{
    WRegistry *r = arg;
    pthread_setname_np(pthread_self(), "weir-sampler");
    pthread_mutex_lock(&r->mu);
    while (!r->stopping) {
        int64_t now = wregistry_now();
        for (int i = 0; i < r->n; i++) {
            WRegJob *j = r->jobs[i];
            /* running jobs every second; one last sample after the end */
            bool ended_sampled = j->nhist > 0 && j->end_ms > 0 &&
                                 j->hist[(j->hist_start + j->nhist - 1) % WREG_HISTORY].t >= j->end_ms;
            if (j->job || (j->end_ms > 0 && !ended_sampled)) sample_job(j, now);
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        while (!r->stopping && pthread_cond_timedwait(&r->cv, &r->mu, &until) != ETIMEDOUT) {}
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ------------------------------------------------------------------ lifecycle */

void wregistry_init(WRegistry *r, const WClusterConfig *cfg)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&r->cv, &ca);
    pthread_condattr_destroy(&ca);
    r->cfg = cfg;
    r->started_ms = wregistry_now();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r->rng = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    r->executor.ctx = r;
    r->executor.submit = submit;
    r->executor.observe = observe;
    r->executor.advise = advise;
    r->has_sampler = pthread_create(&r->sampler, NULL, sampler_thread, r) == 0;
}

bool wregistry_released(WRegistry *r, const char *id)
{
    pthread_mutex_lock(&r->mu);
    WRegJob *j = wregistry_find(r, id);
    bool rel = !j || j->released;
    pthread_mutex_unlock(&r->mu);
    return rel;
}

void wregistry_stop_jobs(WRegistry *r)
{
    pthread_mutex_lock(&r->mu);
    r->stopping = true;
    for (int i = 0; i < r->n; i++) {
        WRegJob *j = r->jobs[i];
        if (!wjob_state_terminal(j->state)) {
            set_state(j, WJS_CANCELLING);
            if (j->job) wjob_cancel(j->job);
        }
    }
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->has_sampler) {
        pthread_join(r->sampler, NULL);
        r->has_sampler = false;
    }
    /* wait for the job threads; a job that ignores cancellation for 10 s is left behind */
    pthread_mutex_lock(&r->mu);
    int n = 0;
    WRegJob **threads = wcalloc((size_t)(r->n ? r->n : 1), sizeof(WRegJob *));
    for (int i = 0; i < r->n; i++)
        if (r->jobs[i]->has_thread) threads[n++] = r->jobs[i];
    pthread_mutex_unlock(&r->mu);
    for (int i = 0; i < n; i++) {
        WRegJob *j = threads[i];
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 10;
        if (pthread_timedjoin_np(j->thread, NULL, &until) == 0) {
            j->has_thread = false;
        } else {
            fprintf(stderr, "weir: job %s did not stop within 10 s of its cancellation\n", j->id);
        }
    }
    free(threads);
}

void wregistry_destroy(WRegistry *r)
{
    wregistry_stop_jobs(r);
    bool leaked = false;
    for (int i = 0; i < r->n; i++) {
        if (r->jobs[i]->has_thread) { leaked = true; continue; }
        free_entry(r->jobs[i]);
    }
    if (!leaked) {
        free(r->jobs);
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
    }
    r->jobs = NULL;
    r->n = 0;
}
