/*
 * expand.c — the Expand operator: every input row once per projection, each projection keeping
 * some input columns, setting others to NULL and adding a literal (the grouping-set id $e), as
 * Flink's StreamExecExpand does for GROUPING SETS / ROLLUP / CUBE. Row kinds pass through, so
 * retractions are expanded the same way as the rows they retract. Stateless.
 */
#include "expand.h"

#include <stdlib.h>

typedef struct ExpandOp {
    WOperator base;
    int nproj;
    const int *src;
    const int64_t *ids;
    WChunk *out;
} ExpandOp;

static void expand_process(WOperator *op, int input, const WChunk *in)
{
    ExpandOp *x = (ExpandOp *)op;
    int nc = op->ncols;
    (void)input;
    wchunk_reset(x->out);
    for (int r = 0; r < in->nrows; r++) {
        for (int k = 0; k < x->nproj; k++) {
            int o = wchunk_add_row(x->out, (WRowKind)in->kinds[r]);
            if (o < 0) {
                /* full: the rows point into `in`, which stays valid while we emit */
                wop_emit(op, x->out);
                wchunk_reset(x->out);
                o = wchunk_add_row(x->out, (WRowKind)in->kinds[r]);
            }
            const int *s = x->src + (size_t)k * (size_t)nc;
            for (int c = 0; c < nc; c++) {
                WVector *v = &x->out->cols[c];
                if (s[c] >= 0) {
                    v->data[o] = in->cols[s[c]].data[r];
                    v->nulls[o] = in->cols[s[c]].nulls[r];
                } else if (s[c] == -2) {
                    v->data[o].i = x->ids[k];
                    v->nulls[o] = 0;
                } else {
                    v->data[o] = (WDatum){0};
                    v->nulls[o] = 1;
                }
            }
        }
    }
    if (x->out->nrows) wop_emit(op, x->out);
}

static void expand_destroy(WOperator *op)
{
    ExpandOp *x = (ExpandOp *)op;
    wchunk_free(x->out);
    free(x);
}

static const WOpOps EXPAND_OPS = {.process = expand_process, .destroy = expand_destroy};

WOperator *wop_expand_new(WExecCtx *ctx, int nproj, const int *src, const int64_t *ids, int ncols,
                          const WType **types, const char **names)
{
    ExpandOp *x = wcalloc(1, sizeof *x);
    wop_init(&x->base, &EXPAND_OPS, ctx, 1, ncols, types, names);
    x->nproj = nproj;
    x->src = src;
    x->ids = ids;
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    x->out = wchunk_new(ncols, types, cap);
    return &x->base;
}
