/* operator.c — framework part of operators: wiring, watermark merge, end of input. */
#include "operator.h"
#include "../common/proc_clock.h"
#include "insight.h"
#include "minibatch.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct WOpPublished {
    pthread_mutex_t mu;
    WOpMetrics m;
};

/* relaxed atomic stores: the running thread is the only writer, other threads read */
#define PUBLISH(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELAXED)

void wop_init(WOperator *op, const WOpOps *ops, WExecCtx *ctx, int ninputs, int ncols,
              const WType **types, const char **names)
{
    op->ops = ops;
    op->ctx = ctx;
    op->ninputs = ninputs;
    op->input_wm = wcalloc((size_t)(ninputs ? ninputs : 1), sizeof(int64_t));
    op->input_ended = wcalloc((size_t)(ninputs ? ninputs : 1), sizeof(bool));
    op->input_idle = wcalloc((size_t)(ninputs ? ninputs : 1), sizeof(bool));
    for (int i = 0; i < ninputs; i++) op->input_wm[i] = WWM_MIN;
    op->wm = WWM_MIN;
    if (ops->metrics) {
        op->published = wcalloc(1, sizeof *op->published);
        pthread_mutex_init(&op->published->mu, NULL);
    }
    op->ncols = ncols;
    op->types = types;
    op->names = names;
    op->insight = winsight_new(ctx->config, ctx->err);
}

void wop_connect(WOperator *from, WOperator *to, int to_input)
{
    if (from->nouts == from->cap_outs) {
        from->cap_outs = from->cap_outs ? from->cap_outs * 2 : 2;
        from->outs = wrealloc(from->outs, sizeof(WOpOut) * (size_t)from->cap_outs);
    }
    from->outs[from->nouts++] = (WOpOut){to, to_input};
    if (to->insight) winsight_input_names(to, to_input, from->ncols, from->names);
}

void wop_free(WOperator *op)
{
    if (!op) return;
    free(op->input_wm);
    free(op->input_ended);
    free(op->input_idle);
    free(op->outs);
    if (op->published) {
        pthread_mutex_destroy(&op->published->mu);
        free(op->published);
    }
    wmb_free(op);
    winsight_free(op->insight);
    if (op->ops->destroy) op->ops->destroy(op);
    else free(op);
}

/* ---- time accounting (operator.h) ---- */

/* Charge the time since the last mark to the running operator (busy) and move the mark. */
static void charge_busy(WExecCtx *ctx, int64_t now)
{
    WOperator *cur = ctx->timed_op;
    if (cur && now > ctx->timed_mark_ns) PUBLISH(cur->busy_ns, cur->busy_ns + (now - ctx->timed_mark_ns));
    ctx->timed_mark_ns = now;
}

WOperator *wop_time_enter(WExecCtx *ctx, WOperator *op)
{
    WOperator *prev = ctx->timed_op;
    if (op->untimed || op == prev) return prev;
    charge_busy(ctx, wproc_mono_ns());
    ctx->timed_op = op;
    return prev;
}

void wop_time_leave(WExecCtx *ctx, WOperator *prev)
{
    if (ctx->timed_op == prev) return;
    charge_busy(ctx, wproc_mono_ns());
    ctx->timed_op = prev;
}

void wop_time_block_begin(WExecCtx *ctx) { charge_busy(ctx, wproc_mono_ns()); }

void wop_time_block_end(WExecCtx *ctx)
{
    int64_t now = wproc_mono_ns();
    WOperator *cur = ctx->timed_op;
    if (cur && now > ctx->timed_mark_ns)
        PUBLISH(cur->backpressured_ns, cur->backpressured_ns + (now - ctx->timed_mark_ns));
    ctx->timed_mark_ns = now;
}

void wop_time_waited(WOperator *op, int64_t ns)
{
    if (ns <= 0) return;
    PUBLISH(op->busy_ns, op->busy_ns > ns ? op->busy_ns - ns : 0);
}

void wop_push(WOperator *op, int input, const WChunk *in)
{
    if (op->ctx->err->set || in->nrows == 0) return;
    PUBLISH(op->rows_in, op->rows_in + in->nrows);
    WOperator *prev = wop_time_enter(op->ctx, op);
    if (op->insight) winsight_rows(op, input, in);
    if (op->mb) wmb_add(op, input, in);
    else op->ops->process(op, input, in);
    wop_time_leave(op->ctx, prev);
}

void wop_emit(WOperator *op, const WChunk *c)
{
    if (c->nrows == 0) return;
    if (op->mb && wmb_collect(op, c)) return;
    PUBLISH(op->rows_out, op->rows_out + c->nrows);
    for (int i = 0; i < op->nouts; i++) wop_push(op->outs[i].op, op->outs[i].input, c);
}

void wop_emit_watermark(WOperator *op, int64_t wm)
{
    for (int i = 0; i < op->nouts; i++) wop_input_watermark(op->outs[i].op, op->outs[i].input, wm);
}

void wop_emit_end(WOperator *op)
{
    for (int i = 0; i < op->nouts; i++) wop_input_end(op->outs[i].op, op->outs[i].input);
}

/* Minimum watermark over the active inputs (all inputs when every one is idle). */
static int64_t min_watermark(const WOperator *op)
{
    int64_t m = WWM_MAX;
    bool any_active = false;
    for (int i = 0; i < op->ninputs; i++) if (!op->input_idle[i]) any_active = true;
    for (int i = 0; i < op->ninputs; i++) {
        if (any_active && op->input_idle[i]) continue;
        if (op->input_wm[i] < m) m = op->input_wm[i];
    }
    return m;
}

/* The combined watermark advanced to m: a mini-batch boundary first processes the bundle. */
static void deliver_watermark(WOperator *op, int64_t m)
{
    PUBLISH(op->wm, m);
    WOperator *prev = wop_time_enter(op->ctx, op);
    if (op->mb && wmb_ends_on_watermark(op, m)) wop_minibatch_flush(op);
    if (op->ops->watermark) op->ops->watermark(op, m);
    else wop_emit_watermark(op, m);
    wop_time_leave(op->ctx, prev);
}

static void advance_watermark(WOperator *op)
{
    int64_t m = min_watermark(op);
    if (m > op->wm) deliver_watermark(op, m);
}

void wop_input_idle(WOperator *op, int input, bool idle)
{
    if (op->ctx->err->set || op->input_idle[input] == idle) return;
    op->input_idle[input] = idle;
    if (!idle) op->input_wm[input] = op->input_wm[input] > op->wm ? op->input_wm[input] : op->wm;
    bool all = true;
    for (int i = 0; i < op->ninputs; i++) if (!op->input_idle[i] && !op->input_ended[i]) all = false;
    if (all != op->idle) {
        op->idle = all;
        if (op->ops->idle) op->ops->idle(op, all);
        else for (int i = 0; i < op->nouts; i++) wop_input_idle(op->outs[i].op, op->outs[i].input, all);
    }
    if (!all) advance_watermark(op);
}

void wop_input_watermark(WOperator *op, int input, int64_t wm)
{
    if (op->ctx->err->set) return;
    if (wm <= op->input_wm[input]) return;
    op->input_wm[input] = wm;
    /* a two-input bundle ends its batch on a watermark of either input (Flink's
       processWatermark1/2 call finishBundle before combining them); the end of one input is
       not a boundary: weir's lane runs its sources one after the other, where Flink's one
       reused source (a self-join) ends both inputs at once */
    if (op->mb && op->ninputs > 1 && wm != WWM_MAX) wop_minibatch_flush(op);
    advance_watermark(op);
}

void wop_input_end(WOperator *op, int input)
{
    if (op->input_ended[input]) return;
    op->input_ended[input] = true;
    op->ended++;
    if (op->ended < op->ninputs) return;
    if (op->ctx->err->set) return;
    PUBLISH(op->finished, true);
    WOperator *prev = wop_time_enter(op->ctx, op);
    if (op->mb) wop_minibatch_flush(op);
    if (op->ops->end_input) op->ops->end_input(op);
    else wop_emit_end(op);
    wop_time_leave(op->ctx, prev);
}

void wchunk_gather(WChunk *dst, const WChunk *src, const uint8_t *sel)
{
    /* the selected rows' indexes first, then a column at a time */
    int rows[WCHUNK_CAP];
    int k0 = dst->nrows;
    for (int base = 0; base < src->nrows; base += WCHUNK_CAP) {
        int end = src->nrows - base < WCHUNK_CAP ? src->nrows : base + WCHUNK_CAP, m = 0;
        for (int r = base; r < end; r++) {
            rows[m] = r;
            m += sel[r] != 0;
        }
        uint8_t *dk = dst->kinds + k0;
        for (int j = 0; j < m; j++) dk[j] = src->kinds[rows[j]];
        for (int c = 0; c < src->ncols; c++) {
            const WDatum *sd = src->cols[c].data;
            const uint8_t *sn = src->cols[c].nulls;
            WDatum *dd = dst->cols[c].data + k0;
            uint8_t *dn = dst->cols[c].nulls + k0;
            for (int j = 0; j < m; j++) {
                dd[j] = sd[rows[j]];
                dn[j] = sn[rows[j]];
            }
        }
        k0 += m;
    }
    dst->nrows = k0;
}

static void registry_add(WExecCtx *ctx, const char *name, WStateBackend *b, WTimerService *t)
{
    WExecRegistry *r = ctx->registry;
    if (!r) return;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->items = wrealloc(r->items, sizeof(WExecStateEntry) * (size_t)r->cap);
    }
    r->items[r->n++] = (WExecStateEntry){.node_id = -1, .name = name, .backend = b, .timers = t};
}

WStateBackend *wexec_new_backend(WExecCtx *ctx, const char *operator_name)
{
    WStateBackendConfig cfg = {.operator_name = operator_name,
                               .max_parallelism = ctx->max_parallelism > 0 ? ctx->max_parallelism : 128,
                               .clock = ctx->clock, .clock_ctx = ctx->clock_ctx};
    WStateBackendType type = WSTATE_BACKEND_HASHMAP;
    WRocksDBConfig rcfg = {0};
    WOptions over;
    wopts_init(&over);
    if (ctx->config) wopts_copy(&over, ctx->config);
    if (ctx->state_backend_type) wopts_set(&over, "state.backend.type", ctx->state_backend_type);
    bool ok = wstate_backend_config(&over, &type, &rcfg, ctx->err);
    if (ctx->state_local_dir) rcfg.local_dir = ctx->state_local_dir;
    WStateBackend *b = NULL;
    if (ok && type == WSTATE_BACKEND_ROCKSDB) b = wstate_rocksdb_new(&cfg, &rcfg, ctx->err);
    /* weir.state.memory-limit bounds heap state; RocksDB keeps its state on disk */
    const char *lim = ctx->config ? wopts_get(ctx->config, "weir.state.memory-limit") : NULL;
    if (!b && ok && lim) {
        wopts_get_bytes(ctx->config, "weir.state.memory-limit", 0, &cfg.memory_limit, ctx->err);
        cfg.limit_err = ctx->err;
    }
    wopts_free(&over);
    if (!b) b = wstate_heap_new(&cfg);
    registry_add(ctx, operator_name, b, NULL);
    return b;
}

WTimerService *wexec_new_timers(WExecCtx *ctx, const char *operator_name)
{
    WTimerService *t = wtimers_new();
    registry_add(ctx, operator_name, NULL, t);
    return t;
}

int64_t wexec_now(const WExecCtx *ctx)
{
    if (ctx->clock) return ctx->clock(ctx->clock_ctx);
    return wproc_wall_ms();
}

void wop_read_counters(const WOperator *op, WOpCounters *out)
{
    out->rows_in = __atomic_load_n(&op->rows_in, __ATOMIC_RELAXED);
    out->rows_out = __atomic_load_n(&op->rows_out, __ATOMIC_RELAXED);
    out->late_dropped = __atomic_load_n(&op->late_dropped, __ATOMIC_RELAXED);
    out->wm = __atomic_load_n(&op->wm, __ATOMIC_RELAXED);
    out->finished = __atomic_load_n(&op->finished, __ATOMIC_RELAXED);
    out->busy_ns = __atomic_load_n(&op->busy_ns, __ATOMIC_RELAXED);
    out->backpressured_ns = __atomic_load_n(&op->backpressured_ns, __ATOMIC_RELAXED);
}

/* op's metrics taken now, on the thread that runs it */
static void take_metrics(WOperator *op, WOpMetrics *m)
{
    memset(m, 0, sizeof *m);
    if (op->ops->metrics) op->ops->metrics(op, m);
}

void wop_publish_metrics(WOperator *op)
{
    if (!op->published) return;
    WOpMetrics m;
    take_metrics(op, &m);
    pthread_mutex_lock(&op->published->mu);
    op->published->m = m;
    pthread_mutex_unlock(&op->published->mu);
}

void wop_read_metrics(const WOperator *op, WOpMetrics *out)
{
    memset(out, 0, sizeof *out);
    if (!op->published) return;
    pthread_mutex_lock(&op->published->mu);
    *out = op->published->m;
    pthread_mutex_unlock(&op->published->mu);
}

void wop_metrics_text(WOperator *op, char *buf, size_t bufsz)
{
    if (!bufsz) return;
    WOpMetrics m;
    take_metrics(op, &m);
    wop_metrics_format(&m, buf, bufsz);
}

/* ---- typed metrics ---- */

void wop_metrics_state(WOpMetrics *m, const char *name, int64_t entries, int64_t bytes)
{
    assert(m && m->nstates >= 0 && m->nstates <= WOP_METRICS_STATES);
    if (m->nstates == WOP_METRICS_STATES) {         /* full: the last line sums the rest */
        struct WOpMetricsState *last = &m->states[WOP_METRICS_STATES - 1];
        snprintf(last->name, sizeof last->name, "%s", WOP_METRICS_OTHER_STATES);
        last->entries += entries;
        last->bytes += bytes;
        return;
    }
    snprintf(m->states[m->nstates].name, sizeof m->states[0].name, "%s", name ? name : "");
    m->states[m->nstates].entries = entries;
    m->states[m->nstates].bytes = bytes;
    m->nstates++;
}

void wop_metrics_states(WOpMetrics *m, const WStateBackend *b)
{
    int n;
    WStateStats *st = wstate_stats_all(b, &n);
    for (int i = 0; i < n; i++) wop_metrics_state(m, st[i].name, st[i].entries, st[i].bytes);
    free(st);
}

void wop_metrics_timed(WOpMetrics *m, const WStateBackend *b, const WTimerService *timers)
{
    wop_metrics_states(m, b);
    wop_metrics_value(m, "timers", (int64_t)wtimers_count(timers));
}

void wop_metrics_agg_state(WOpMetrics *m, const WStateBackend *b, const char *name)
{
    int n;
    WStateStats *st = wstate_stats_all(b, &n);
    int64_t entries = 0, bytes = 0;
    for (int i = 0; i < n; i++) {
        if (st[i].name && strcmp(st[i].name, name) == 0) entries = st[i].entries;
        bytes += st[i].bytes;
    }
    free(st);
    wop_metrics_state(m, name, entries, bytes);
}

void wop_metrics_value(WOpMetrics *m, const char *name, int64_t value)
{
    assert(m && m->nvalues >= 0 && m->nvalues < WOP_METRICS_VALUES);
    snprintf(m->values[m->nvalues].name, sizeof m->values[0].name, "%s", name);
    m->values[m->nvalues].value = value;
    m->nvalues++;
}

void wop_metrics_format(const WOpMetrics *m, char *buf, size_t bufsz)
{
    if (!bufsz) return;
    buf[0] = 0;
    size_t len = 0;
    for (int i = 0; i < m->nstates && len < bufsz; i++) {
        int w = snprintf(buf + len, bufsz - len, "%s%s.entries=%lld %s.bytes=%lld", len ? " " : "",
                         m->states[i].name, (long long)m->states[i].entries, m->states[i].name,
                         (long long)m->states[i].bytes);
        if (w < 0) return;
        len += (size_t)w;
    }
    for (int i = 0; i < m->nvalues && len < bufsz; i++) {
        int w = snprintf(buf + len, bufsz - len, "%s%s=%lld", len ? " " : "", m->values[i].name,
                         (long long)m->values[i].value);
        if (w < 0) return;
        len += (size_t)w;
    }
}
