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
 * In-order input is never cut. What stays different: a row that is not late, in a chunk where
 * the watermark advanced, sees an older CURRENT_WATERMARK() than Flink's.
 */
#include "watermark.h"

#include <assert.h>
#include <stdlib.h>

typedef struct WmOp {
    WOperator base;
    WExpr *expr;
    WArena *arena;
    WVector vec;
    int rowtime_col;
    int64_t current;
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

static void wm_process(WOperator *op, int input, const WChunk *in)
{
    WmOp *w = (WmOp *)op;
    (void)input;
    warena_reset(w->arena);
    WEvalCtx ec = {.arena = w->arena, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .clock = op->ctx->clock, .clock_ctx = op->ctx->clock_ctx, .err = op->ctx->err};
    w->vec.type = w->expr->type;
    w->vec.data = wa_alloc(w->arena, sizeof(WDatum) * (size_t)in->nrows);
    w->vec.nulls = wa_zalloc(w->arena, (size_t)in->nrows);
    if (!wexpr_eval(&ec, w->expr, in, NULL, &w->vec)) return;
    const WVector *rt = w->rowtime_col >= 0 && w->rowtime_col < in->ncols ? &in->cols[w->rowtime_col] : NULL;
    int64_t mx = w->current;
    int from = 0;
    for (int i = 0; i < in->nrows; i++) {
        if (rt && mx > w->current && !rt->nulls[i] && rt->data[i].ts.ms <= mx) {
            /* row i would be late in Flink against the watermark of the rows before it */
            if (i > from) {
                WChunk part = chunk_view(w->arena, in, from, i);
                wop_emit(op, &part);
            }
            w->current = mx;
            wop_emit_watermark(op, mx);
            from = i;
        }
        if (!w->vec.nulls[i] && w->vec.data[i].ts.ms > mx) mx = w->vec.data[i].ts.ms;
    }
    if (from == 0) {
        wop_emit(op, in);
    } else {
        WChunk part = chunk_view(w->arena, in, from, in->nrows);
        wop_emit(op, &part);
    }
    if (mx > w->current) {
        w->current = mx;
        wop_emit_watermark(op, mx);
    }
}

/* Upstream watermarks are not forwarded: this operator defines event time. End of input still
   sends Long.MAX through the framework's end handling below. */
static void wm_watermark(WOperator *op, int64_t wm)
{
    if (wm == WWM_MAX) wop_emit_watermark(op, wm);
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
    free(w);
}

static const WOpOps WM_OPS = {.process = wm_process, .watermark = wm_watermark, .end_input = wm_end,
                              .destroy = wm_destroy};

WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, int rowtime_col, int ncols, const WType **types,
                             const char **names)
{
    WmOp *w = wcalloc(1, sizeof *w);
    wop_init(&w->base, &WM_OPS, ctx, 1, ncols, types, names);
    w->expr = expr;
    w->arena = warena_new(0);
    w->current = WWM_MIN;
    w->rowtime_col = rowtime_col;
    return &w->base;
}
