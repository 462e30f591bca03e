/*
 * watermark.c — the WatermarkAssigner operator: forwards rows and, after each chunk, emits the
 * largest watermark-expression value seen so far when it advanced (Flink SQL's assigner emits the
 * expression's value itself; rows with a NULL result do not move it). With chunks of one row this
 * is Flink's on-event emission.
 */
#include "watermark.h"

#include <stdlib.h>

typedef struct WmOp {
    WOperator base;
    WExpr *expr;
    WArena *arena;
    WVector vec;
    int64_t current;
} WmOp;

static void wm_process(WOperator *op, int input, const WChunk *in)
{
    WmOp *w = (WmOp *)op;
    (void)input;
    wop_emit(op, in);
    warena_reset(w->arena);
    WEvalCtx ec = {.arena = w->arena, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .err = op->ctx->err};
    w->vec.type = w->expr->type;
    w->vec.data = wa_alloc(w->arena, sizeof(WDatum) * (size_t)in->nrows);
    w->vec.nulls = wa_zalloc(w->arena, (size_t)in->nrows);
    if (!wexpr_eval(&ec, w->expr, in, NULL, &w->vec)) return;
    int64_t mx = w->current;
    for (int i = 0; i < in->nrows; i++)
        if (!w->vec.nulls[i] && w->vec.data[i].ts.ms > mx) mx = w->vec.data[i].ts.ms;
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

WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, int ncols, const WType **types, const char **names)
{
    WmOp *w = wcalloc(1, sizeof *w);
    wop_init(&w->base, &WM_OPS, ctx, 1, ncols, types, names);
    w->expr = expr;
    w->arena = warena_new(0);
    w->current = WWM_MIN;
    return &w->base;
}
