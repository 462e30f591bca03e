/*
 * replicate_rows.c — the Correlate that joins each row with the table function
 * $REPLICATE_ROWS$1(n, c1, ..., ck): the row comes out n times (none when n is NULL or not
 * positive), with c1..ck appended, as Flink's ReplicateRowsFunction under an INNER Correlate.
 * Row kinds pass through: an update of n from 2 to 3 retracts two copies and inserts three.
 * Stateless.
 */
#include "replicate_rows.h"

#include <stdlib.h>

typedef struct ReplicateOp {
    WOperator base;
    int n;                  /* replicated columns */
    WChunk *out;
} ReplicateOp;

static void replicate_process(WOperator *op, int input, const WChunk *in)
{
    ReplicateOp *x = (ReplicateOp *)op;
    int n = x->n;
    (void)input;
    wchunk_reset(x->out);
    for (int r = 0; r < in->nrows; r++) {
        if (in->cols[0].nulls[r]) continue;
        int64_t times = in->cols[0].data[r].i;
        for (int64_t t = 0; t < times; t++) {
            if (wexec_cancelled(op->ctx)) return;
            int o = wchunk_add_row(x->out, (WRowKind)in->kinds[r]);
            if (o < 0) {
                wop_emit(op, x->out);
                wchunk_reset(x->out);
                o = wchunk_add_row(x->out, (WRowKind)in->kinds[r]);
            }
            for (int c = 0; c <= n; c++) {
                x->out->cols[c].data[o] = in->cols[c].data[r];
                x->out->cols[c].nulls[o] = in->cols[c].nulls[r];
            }
            for (int c = 0; c < n; c++) {
                x->out->cols[1 + n + c].data[o] = in->cols[1 + c].data[r];
                x->out->cols[1 + n + c].nulls[o] = in->cols[1 + c].nulls[r];
            }
        }
    }
    if (x->out->nrows) wop_emit(op, x->out);
}

static void replicate_destroy(WOperator *op)
{
    ReplicateOp *x = (ReplicateOp *)op;
    wchunk_free(x->out);
    free(x);
}

static const WOpOps REPLICATE_OPS = {.process = replicate_process, .destroy = replicate_destroy};

WOperator *wop_replicate_rows_new(WExecCtx *ctx, int ncols, const WType **types, const char **names)
{
    ReplicateOp *x = wcalloc(1, sizeof *x);
    wop_init(&x->base, &REPLICATE_OPS, ctx, 1, ncols, types, names);
    x->n = (ncols - 1) / 2;
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    x->out = wchunk_new(ncols, types, cap);
    return &x->base;
}
