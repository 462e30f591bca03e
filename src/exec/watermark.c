/*
 * watermark.c — the WatermarkAssigner operator: forwards rows and emits the largest
 * watermark-expression value seen so far when it advanced (Flink SQL's assigner emits the
 * expression's value itself; rows with a NULL result do not move it).
 *
 * Flink's SQL sources emit the watermark after every record (measured on Flink 2.3: a row sees the
 * watermark of the rows before it), so a row that arrives after a later one can be late. weir
 * works on chunks: the watermark is emitted after the chunk, except that the chunk is cut (views of
 * the same vectors, no copy) before every row whose rowtime is not after the watermark Flink would
 * have emitted by then; that watermark goes out first, so the row is as late as it is in Flink.
 * In-order input is never cut (unless `every_record`: below a sink materializer that compacts
 * on every watermark, the chunk is cut at each advance; or `trigger_interval_ms`: below a
 * LocalWindowAggregate, cut where the watermark crosses one of its trigger points). What stays different: a row that is not
 * late, in a chunk where the watermark advanced, sees an older CURRENT_WATERMARK() than Flink's.
 *
 * Per-split watermarks (cfg->splits, a source such as kafka whose watermark Flink pushes into the
 * scan): as Flink's SourceOperator with a WatermarkOutputMultiplexer, every split (partition) has
 * its own watermark, the largest value of its rows; the operator's watermark is the minimum over
 * the splits that are neither idle nor finished, emitted when it advances. A split without rows
 * for idle_timeout_ms (checked at ticks, Flink: at its periodic emit) is idle until its next row;
 * a split read to its end no longer counts. When every split is idle the operator tells its
 * outputs it is idle (Flink's WatermarkStatus.IDLE). With `periodic` (Flink's default emit
 * strategy for those sources, on-periodic) the minimum is emitted at ticks every interval_ms
 * instead of after the rows, and chunks are never cut.
 *
 * Insight (issue 21: watermark lag per split): the operator describes its splits in the snapshots
 * it publishes — each split's watermark, rows, idle/finished, and the most it lagged behind the
 * leading split of this subtask while both were active (measured after every chunk) — and counts
 * the rows that arrive at or behind the watermark it has already emitted (rowtime <= watermark:
 * every event-time operator after it treats them as late, a window unless it is still open), by
 * their origin (cfg->origin: the source's split or file; one comparison per row, insight only).
 */
#include "watermark.h"
#include "insight.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct WmSplit {
    int64_t wm;                 /* largest watermark-expression value of the split's rows */
    int64_t last_rows_ms;       /* processing time of its last rows (or of the first tick) */
    int64_t rows;
    int64_t max_lag_ms;         /* the most it was behind the leading split (insight) */
    bool idle;
} WmSplit;

/* Rows behind the watermark from one origin (insight). */
typedef struct WmOrigin {
    int64_t behind, behind_max_ms;
} WmOrigin;

typedef struct WmOp {
    WOperator base;
    WExpr *expr;
    WArena *arena;
    WVector vec;
    WConstVecs consts;          /* the literals its expression's calls read, broadcast once */
    WWmConfig cfg;
    int64_t current;            /* the watermark emitted */
    WmSplit *sp;
    int nsp;
    bool in_idle;               /* the input told this operator it is idle (the lane's source timeout) */
    bool out_idle;              /* this operator told its outputs it is idle */
    int64_t next_emit_ms;       /* periodic: the next emission (0: not yet scheduled) */
    WmOrigin *org;              /* by origin id + 1 (0: origin not known) */
    int norg;
    int64_t behind_total;
} WmOp;

/* rows [from, to) of c as a chunk that shares c's vectors (allocated in arena a) */
static WChunk chunk_view(WArena *a, const WChunk *c, int from, int to)
{
    assert(from >= 0 && from <= to && to <= c->nrows);
    WChunk v = *c;
    v.nrows = v.cap = to - from;
    v.cols = wa_alloc(a, sizeof(WVector) * (size_t)(c->ncols > 0 ? c->ncols : 1));
    for (int j = 0; j < c->ncols; j++) {
        v.cols[j] = c->cols[j];
        v.cols[j].data = c->cols[j].data + from;
        v.cols[j].nulls = c->cols[j].nulls + from;
    }
    v.kinds = c->kinds + from;
    return v;
}

/* Grow the split table to the source's split count (new splits start at Long.MIN_VALUE, active). */
static void sync_splits(WmOp *w)
{
    int n = w->cfg.splits.nsplits ? *w->cfg.splits.nsplits : 1;
    if (n <= w->nsp) return;
    w->sp = realloc(w->sp, sizeof *w->sp * (size_t)n);
    int64_t now = wexec_now(w->base.ctx);
    for (int i = w->nsp; i < n; i++) w->sp[i] = (WmSplit){.wm = WWM_MIN, .last_rows_ms = now};
    w->nsp = n;
}

static bool finished(const WmOp *w, int i)
{
    const uint8_t *f = w->cfg.splits.finished ? *w->cfg.splits.finished : NULL;
    return f && f[i];
}

/* Minimum watermark over the splits other than `skip` that count (neither idle nor finished);
   WWM_MAX when none does. *any: whether one counts. */
static int64_t others_min(const WmOp *w, int skip, bool *any)
{
    int64_t m = WWM_MAX;
    *any = false;
    for (int i = 0; i < w->nsp; i++) {
        if (i == skip || w->sp[i].idle || finished(w, i)) continue;
        *any = true;
        if (w->sp[i].wm < m) m = w->sp[i].wm;
    }
    return m;
}

static void set_out_idle(WmOp *w, bool idle)
{
    if (w->out_idle == idle) return;
    w->out_idle = idle;
    for (int i = 0; i < w->base.nouts; i++) wop_input_idle(w->base.outs[i].op, w->base.outs[i].input, idle);
}

/* Flink's CombinedWatermarkStatus over the splits not finished: the minimum over the active ones
   or, when every one is idle, the maximum of them all (WWM_MIN without splits). */
static int64_t combined(const WmOp *w, bool *all_idle)
{
    bool any;
    int64_t m = others_min(w, -1, &any);
    *all_idle = !any;
    if (any) return m;
    m = WWM_MIN;
    for (int i = 0; i < w->nsp; i++)
        if (!finished(w, i) && w->sp[i].wm > m) m = w->sp[i].wm;
    return m;
}

/* Emit the combined watermark when it advanced, then tell the outputs whether every split (or
   the input) is idle (Flink's WatermarkOutputMultiplexer.updateCombinedWatermark). */
static void emit_if_advanced(WmOp *w)
{
    bool all_idle;
    int64_t m = combined(w, &all_idle);
    if (m > w->current) {
        w->current = m;
        wop_emit_watermark(&w->base, m);
    }
    bool any_split = false;
    for (int i = 0; i < w->nsp; i++) if (!finished(w, i)) any_split = true;
    set_out_idle(w, w->in_idle || (all_idle && any_split));
}

/* Insight: every split with a watermark that still counts (neither idle nor finished) measures
   how far it is behind the leading one (the largest watermark of the splits not idle, a split
   read to its end included: its rows are ahead of the others'). O(splits) per chunk, only with
   insight on. */
static void track_lags(WmOp *w)
{
    int64_t lead = WWM_MIN;
    for (int i = 0; i < w->nsp; i++)
        if (!w->sp[i].idle && w->sp[i].wm > lead) lead = w->sp[i].wm;
    for (int i = 0; i < w->nsp; i++) {
        WmSplit *x = &w->sp[i];
        if (x->idle || finished(w, i) || x->wm == WWM_MIN) continue;
        int64_t lag = winsight_lateness(lead, x->wm);
        if (lag > x->max_lag_ms) x->max_lag_ms = lag;
    }
}

static void wm_insight(WOperator *op, WInsightSnap *s)
{
    WmOp *w = (WmOp *)op;
    sync_splits(w);
    s->wm_assigner = true;
    s->nsplits_total = w->nsp;
    s->nsplits = w->nsp < WINS_SPLITS ? w->nsp : WINS_SPLITS;
    for (int i = 0; i < s->nsplits; i++) {
        WInsightSplit *o = &s->splits[i];
        o->name[0] = 0;
        if (w->cfg.splits.label) w->cfg.splits.label(w->cfg.splits.label_ctx, i, o->name, sizeof o->name);
        o->wm = w->sp[i].wm;
        o->rows = w->sp[i].rows;
        o->max_lag_ms = w->sp[i].max_lag_ms;
        o->idle = w->sp[i].idle || (w->in_idle && w->nsp == 1);
        o->finished = finished(w, i) || (op->ended && !w->cfg.splits.nsplits);
    }
    /* the origins with rows behind the watermark, most rows first (bounded) */
    s->behind_total = w->behind_total;
    s->norigins = 0;
    for (int k = 0; k < w->norg; k++) {
        if (!w->org[k].behind) continue;
        int at = s->norigins;
        if (at == WINS_ORIGINS) {
            if (w->org[k].behind <= s->origins[at - 1].behind) continue;
            at--;                       /* replaces the smallest */
        } else {
            s->norigins++;
        }
        WInsightOrigin *x = &s->origins[at];
        x->name[0] = 0;
        if (k > 0 && w->cfg.origin.label) w->cfg.origin.label(w->cfg.origin.label_ctx, k - 1, x->name, sizeof x->name);
        x->behind = w->org[k].behind;
        x->behind_max_ms = w->org[k].behind_max_ms;
        for (; at > 0 && s->origins[at].behind > s->origins[at - 1].behind; at--) {
            WInsightOrigin t = s->origins[at];
            s->origins[at] = s->origins[at - 1];
            s->origins[at - 1] = t;
        }
    }
}

/* Insight: rows of c at or behind the watermark emitted before them, counted for the chunk's origin. */
static void count_behind(WmOp *w, int64_t behind, int64_t max_ms)
{
    int id = w->cfg.origin.id ? *w->cfg.origin.id + 1 : 0;
    if (id < 0) id = 0;
    if (id >= w->norg) {
        w->org = wrealloc(w->org, sizeof *w->org * (size_t)(id + 1));
        memset(w->org + w->norg, 0, sizeof *w->org * (size_t)(id + 1 - w->norg));
        w->norg = id + 1;
    }
    w->org[id].behind += behind;
    if (max_ms > w->org[id].behind_max_ms) w->org[id].behind_max_ms = max_ms;
    w->behind_total += behind;
}

/* Whether a watermark advancing from `from` to `to` crosses a point k * interval - 1 (k >= 0; the
   first watermark >= 0 counts too), where a LocalWindowAggregate may flush (0 interval: never). */
static bool crosses_trigger(int64_t from, int64_t to, int64_t interval)
{
    if (interval <= 0 || to < 0 || to == WWM_MAX) return false;
    if (from < 0) return true;
    return (to + 1) / interval > (from + 1) / interval;
}

static void wm_process(WOperator *op, int input, const WChunk *in)
{
    WmOp *w = (WmOp *)op;
    (void)input;
    warena_reset(w->arena);
    WEvalCtx ec = {.arena = w->arena, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .clock = op->ctx->clock, .clock_ctx = op->ctx->clock_ctx, .err = op->ctx->err,
                   .consts = &w->consts};
    w->vec.type = w->expr->type;
    w->vec.data = wa_alloc(w->arena, sizeof(WDatum) * (size_t)in->nrows);
    w->vec.nulls = wa_zalloc(w->arena, (size_t)in->nrows);
    if (!wexpr_eval(&ec, w->expr, in, NULL, &w->vec)) return;
    sync_splits(w);
    int k = w->cfg.splits.split ? *w->cfg.splits.split : 0;
    assert(k >= 0 && k < w->nsp);
    WmSplit *s = &w->sp[k];
    if (in->nrows > 0) {
        s->last_rows_ms = wexec_now(op->ctx);
        if (s->idle) s->idle = false;
        if (w->out_idle && !w->in_idle) set_out_idle(w, false);
    }
    bool any_other;
    int64_t other = others_min(w, k, &any_other);
    const WVector *rt = !w->cfg.periodic && w->cfg.rowtime_col >= 0 && w->cfg.rowtime_col < in->ncols
                            ? &in->cols[w->cfg.rowtime_col] : NULL;
    int64_t mx = s->wm;
    int from = 0;
    const WVector *rti = op->insight && w->cfg.rowtime_col >= 0 && w->cfg.rowtime_col < in->ncols
                             ? &in->cols[w->cfg.rowtime_col] : NULL;
    int64_t behind = 0, behind_max = 0;
    for (int i = 0; i < in->nrows; i++) {
        int64_t cand = mx < other ? mx : other;        /* the watermark Flink has emitted before row i */
        if (cand > w->current && !w->cfg.periodic &&
            (w->cfg.every_record || (rt && !rt->nulls[i] && rt->data[i].ts.ms <= cand) ||
             crosses_trigger(w->current, cand, w->cfg.trigger_interval_ms))) {
            /* row i would be late in Flink against the watermark of the rows before it, or every
               watermark Flink emits matters downstream */
            if (i > from) {
                WChunk part = chunk_view(w->arena, in, from, i);
                wop_emit(op, &part);
            }
            w->current = cand;
            wop_emit_watermark(op, cand);
            from = i;
        }
        if (rti && !rti->nulls[i] && w->current != WWM_MIN && rti->data[i].ts.ms <= w->current) {
            int64_t late = winsight_lateness(w->current, rti->data[i].ts.ms);
            behind++;
            if (late > behind_max) behind_max = late;
        }
        if (!w->vec.nulls[i] && w->vec.data[i].ts.ms > mx) mx = w->vec.data[i].ts.ms;
    }
    if (from == 0) {
        wop_emit(op, in);
    } else {
        WChunk part = chunk_view(w->arena, in, from, in->nrows);
        wop_emit(op, &part);
    }
    if (behind) count_behind(w, behind, behind_max);
    s->wm = mx;
    s->rows += in->nrows;
    if (op->insight && w->nsp > 1) track_lags(w);
    if (!w->cfg.periodic) emit_if_advanced(w);
}

/* Between chunks: idle splits, and the periodic emission. */
static void wm_tick(WOperator *op)
{
    WmOp *w = (WmOp *)op;
    if (op->ended || op->ctx->err->set || (!w->cfg.splits.nsplits && !w->cfg.periodic)) return;
    sync_splits(w);
    int64_t now = wexec_now(op->ctx);
    if (w->cfg.idle_timeout_ms > 0) {
        for (int i = 0; i < w->nsp; i++)
            if (!w->sp[i].idle && !finished(w, i) && now - w->sp[i].last_rows_ms >= w->cfg.idle_timeout_ms)
                w->sp[i].idle = true;
    }
    if (!w->cfg.periodic) {
        emit_if_advanced(w);        /* a split went idle or finished */
        return;
    }
    if (w->cfg.interval_ms <= 0) return;
    if (!w->next_emit_ms) w->next_emit_ms = now + w->cfg.interval_ms;
    if (now < w->next_emit_ms) return;
    w->next_emit_ms = now + w->cfg.interval_ms;
    emit_if_advanced(w);
}

/* Upstream watermarks are not forwarded: this operator defines event time. End of input still
   sends Long.MAX through the framework's end handling below. */
static void wm_watermark(WOperator *op, int64_t wm)
{
    if (wm == WWM_MAX) wop_emit_watermark(op, wm);
}

static void wm_idle(WOperator *op, bool idle)
{
    WmOp *w = (WmOp *)op;
    w->in_idle = idle;
    if (idle) set_out_idle(w, true);
    else emit_if_advanced(w);
}

static void wm_end(WOperator *op)
{
    wop_emit_watermark(op, WWM_MAX);
    wop_emit_end(op);
}

static void wm_destroy(WOperator *op)
{
    WmOp *w = (WmOp *)op;
    warena_delete(w->arena);
    wconst_vecs_free(&w->consts);
    free(w->sp);
    free(w->org);
    free(w);
}

static const WOpOps WM_OPS = {.process = wm_process, .watermark = wm_watermark, .end_input = wm_end,
                              .idle = wm_idle, .tick = wm_tick, .destroy = wm_destroy,
                              .insight = wm_insight};

WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, const WWmConfig *cfg, int ncols, const WType **types,
                             const char **names)
{
    WmOp *w = wcalloc(1, sizeof *w);
    wop_init(&w->base, &WM_OPS, ctx, 1, ncols, types, names);
    w->expr = expr;
    w->arena = warena_new(0);
    w->current = WWM_MIN;
    w->cfg = *cfg;
    return &w->base;
}
