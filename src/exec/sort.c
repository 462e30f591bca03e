/*
 * sort.c — batch Sort / SortLimit / Limit: the input's final rows are kept in a WSortBuf (a
 * retraction removes an equal earlier row), and at the end of input they leave sorted, limited
 * to [offset, offset + fetch). See sort.h. May call exec/operator, exec/sort_buffer, types/.
 */
#include "sort.h"
#include "../common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct SortOp {
    WOperator base;
    WSortBuf buf;
    int64_t offset, fetch;
    int64_t unmatched;          /* retractions of rows not held */
} SortOp;

static void sort_process(WOperator *op, int input, const WChunk *in)
{
    SortOp *o = (SortOp *)op;
    (void)input;
    o->unmatched += wsortbuf_apply(&o->buf, in);
}

static void sort_end(WOperator *op)
{
    SortOp *o = (SortOp *)op;
    WSortBuf *b = &o->buf;
    int64_t *idx = wmalloc(sizeof *idx * (size_t)(b->live ? b->live : 1));
    int64_t n = wsortbuf_sorted_live(b, idx);
    int64_t from = o->offset > 0 ? o->offset : 0;
    int64_t to = o->fetch < 0 || o->fetch > n - from ? n : from + o->fetch;
    int cap = op->ctx->chunk_rows > 0 ? op->ctx->chunk_rows : WCHUNK_CAP;
    WChunk *out = wchunk_new(op->ncols, op->types, cap);
    for (int64_t i = from; i < to && !op->ctx->err->set; i++) {
        if (!wsortbuf_emit_to(b, idx[i], out, WRK_INSERT)) {
            wop_emit(op, out);
            wchunk_reset(out);
            wsortbuf_emit_to(b, idx[i], out, WRK_INSERT);
        }
    }
    if (out->nrows && !op->ctx->err->set) wop_emit(op, out);
    wchunk_free(out);
    free(idx);
    wop_emit_end(op);
}

static void sort_destroy(WOperator *op)
{
    SortOp *o = (SortOp *)op;
    wsortbuf_free(&o->buf);
    free(o);
}

static void sort_metrics(WOperator *op, WOpMetrics *m)
{
    SortOp *o = (SortOp *)op;
    wop_metrics_value(m, "bufferedRows", o->buf.live);
    wop_metrics_value(m, "unmatchedRetractions", o->unmatched);
}

static const WOpOps SORT_OPS = {.process = sort_process, .end_input = sort_end, .destroy = sort_destroy,
                                .metrics = sort_metrics};

WOperator *wop_sort_new(WExecCtx *ctx, const WSortOpSpec *spec)
{
    SortOp *o = wcalloc(1, sizeof *o);
    wop_init(&o->base, &SORT_OPS, ctx, 1, spec->ncols, spec->types, spec->names);
    for (int k = 0; k < spec->nkeys; k++) {
        if (spec->keys[k].col < 0 || spec->keys[k].col >= spec->ncols) {
            werr_set(ctx->err, WEXC_TABLE, "Sort: sort key column index out of range");
            break;
        }
    }
    wsortbuf_init(&o->buf, spec->ncols, o->base.types, ctx->err->set ? 0 : spec->nkeys, spec->keys, true);
    o->offset = spec->offset;
    o->fetch = spec->fetch;
    return &o->base;
}
