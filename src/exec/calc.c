/*
 * calc.c — the Calc operator: optional filter, then projection expressions, a vector at a time.
 * Row kinds pass through unchanged. Stateless; CURRENT_WATERMARK sees the operator's watermark.
 * A subexpression the filter and projections share (expr.h WExprMemo) is computed once per row:
 * the filter's values follow the selected rows into the projections. A column passed through
 * unchanged is its input vector itself in the output chunk (no copy).
 */
#include "calc.h"

#include <stdlib.h>
#include <string.h>

typedef struct CalcOp {
    WOperator base;
    int nexprs;
    WExpr **exprs;
    WExpr *cond;
    WChunk *out;            /* reused output chunk */
    WChunk *sel_chunk;      /* gathered selected input rows */
    uint8_t *sel;
    WArena plan_arena;      /* the memo's plan */
    WExprMemo memo;         /* used when it has slots (some subexpression occurs twice) */
    WConstVecs consts;      /* the literals its calls read, broadcast once */
} CalcOp;

static void calc_process(WOperator *op, int input, const WChunk *in)
{
    CalcOp *c = (CalcOp *)op;
    (void)input;
    const WChunk *src = in;
    WExprMemo *memo = c->memo.nslots > 0 ? &c->memo : NULL;
    wchunk_reset(c->out);
    if (memo) wexpr_memo_begin(memo, in->nrows);
    WEvalCtx ec = {.arena = c->out->arena, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .clock = op->ctx->clock, .clock_ctx = op->ctx->clock_ctx,
                   .err = op->ctx->err, .has_watermark = op->wm != WWM_MIN, .watermark = op->wm, .memo = memo,
                   .consts = &c->consts};
    if (c->cond) {
        memset(c->sel, 1, (size_t)in->nrows);
        if (!wexpr_filter(&ec, c->cond, in, c->sel)) return;
        int n = 0;
        for (int i = 0; i < in->nrows; i++) n += c->sel[i] != 0;
        if (n == 0) return;
        if (n < in->nrows) {
            c->sel_chunk->nrows = 0;
            wchunk_gather(c->sel_chunk, in, c->sel);
            src = c->sel_chunk;
            if (memo) wexpr_memo_gather(memo, c->sel);
        }
    }
    for (int i = 0; i < c->nexprs; i++) {
        const WExpr *e = c->exprs[i];
        if (e->kind == WX_COLUMN && e->col >= 0 && e->col < src->ncols && !(memo && wexpr_memo_slot(memo, e) >= 0)) {
            /* a column passed through: its vector itself, not a copy (chunks are read-only
               downstream and valid until the call returns; the next wchunk_reset gives out
               vectors of its own again) */
            c->out->cols[i].data = src->cols[e->col].data;
            c->out->cols[i].nulls = src->cols[e->col].nulls;
            continue;
        }
        if (!wexpr_eval(&ec, e, src, NULL, &c->out->cols[i])) return;
    }
    memcpy(c->out->kinds, src->kinds, (size_t)src->nrows);
    c->out->nrows = src->nrows;
    wop_emit(op, c->out);
}

static void calc_destroy(WOperator *op)
{
    CalcOp *c = (CalcOp *)op;
    wchunk_free(c->out);
    wchunk_free(c->sel_chunk);
    free(c->sel);
    warena_free(&c->plan_arena);
    wconst_vecs_free(&c->consts);
    free(c);
}

static const WOpOps CALC_OPS = {.process = calc_process, .destroy = calc_destroy};

WOperator *wop_calc_new(WExecCtx *ctx, int in_ncols, const WType **in_types, int nexprs, WExpr **exprs,
                        WExpr *cond, const WType **out_types, const char **out_names)
{
    CalcOp *c = wcalloc(1, sizeof *c);
    wop_init(&c->base, &CALC_OPS, ctx, 1, nexprs, out_types, out_names);
    c->nexprs = nexprs;
    c->exprs = exprs;
    c->cond = cond;
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    /* inputs may come in chunks up to WCHUNK_CAP; size buffers for the larger */
    if (cap < WCHUNK_CAP) cap = WCHUNK_CAP;
    c->out = wchunk_new(nexprs, out_types, cap);
    c->sel_chunk = wchunk_new(in_ncols, in_types, cap);
    c->sel = wmalloc((size_t)cap);
    warena_init(&c->plan_arena, 0);
    WExpr **roots = WA_ARRAY(&c->plan_arena, WExpr *, nexprs + 1);
    int nroots = 0;
    if (cond) roots[nroots++] = cond;
    for (int i = 0; i < nexprs; i++) roots[nroots++] = exprs[i];
    wexpr_memo_plan(&c->memo, &c->plan_arena, roots, nroots);
    return &c->base;
}
