/*
 * correlate.c — the Correlate operator of UNNEST: per input row, one output row per element of
 * the collection (ARRAY and MULTISET elements, a ROW element's fields as columns, MAP entries as
 * key and value), with an optional 1-based ordinality column, after the row's first `nleft`
 * columns. Row kinds pass through (a -U/-D row retracts each of its element rows), as Flink's
 * correlate does. LEFT: a NULL or empty collection (or none passing the condition) gives one row
 * padded with NULLs. Stateless. Depends on operator.h, expr/, types/.
 */
#include "correlate.h"
#include "op_rows.h"

#include <stdlib.h>
#include <string.h>

typedef struct CorrelateOp {
    WOperator base;
    WCorrelateSpec sp;
    int nf;                 /* function columns */
    const WType *ct;        /* collection type */
    bool row_elem;          /* ARRAY/MULTISET of ROW: the fields are the columns */
    WChunk *out;            /* output being filled */
    WChunk *tmp;            /* one input row's element rows, when there is a condition */
    WArena *scratch;        /* the collection vector and filter results of one input chunk */
    uint8_t *sel;
} CorrelateOp;

static void flush(CorrelateOp *c) { wop_out_flush(&c->base, c->out); }

/* A new row in `dst` (flushing `out` when full) with the input row's left columns. */
static int begin_row(CorrelateOp *c, WChunk *dst, const WChunk *in, int row)
{
    int r = wchunk_add_row(dst, (WRowKind)in->kinds[row]);
    if (r < 0) {
        if (dst != c->out) return -1;
        flush(c);
        r = wchunk_add_row(dst, (WRowKind)in->kinds[row]);
    }
    for (int k = 0; k < c->sp.nleft; k++) {
        dst->cols[k].data[r] = in->cols[k].data[row];
        dst->cols[k].nulls[r] = in->cols[k].nulls[row];
    }
    return r;
}

static void set_col(WChunk *dst, int col, int r, WDatum v, bool null)
{
    dst->cols[col].data[r] = v;
    dst->cols[col].nulls[r] = null ? 1 : 0;
}

/* Fill the function's columns of row r with element k of collection cx. */
static void fill_element(CorrelateOp *c, WChunk *dst, int r, const WComposite *cx, int k)
{
    int base = c->sp.nleft;
    WDatum none = {0};
    if (c->ct->id == WT_MAP) {
        set_col(dst, base, r, cx->vals[2 * k], cx->nulls && cx->nulls[2 * k]);
        set_col(dst, base + 1, r, cx->vals[2 * k + 1], cx->nulls && cx->nulls[2 * k + 1]);
        base += 2;
    } else if (c->row_elem) {
        bool null = cx->nulls && cx->nulls[k];
        const WComposite *row = null ? NULL : cx->vals[k].cx;
        int nfields = c->ct->elem->nfields;
        for (int f = 0; f < nfields; f++) {
            bool fnull = !row || (row->nulls && row->nulls[f]) || f >= row->n;
            set_col(dst, base + f, r, fnull ? none : row->vals[f], fnull);
        }
        base += nfields;
    } else {
        set_col(dst, base, r, cx->vals[k], cx->nulls && cx->nulls[k]);
        base += 1;
    }
    if (c->sp.ordinality) set_col(dst, base, r, WDATUM_I(k + 1), false);
}

static void pad_nulls(CorrelateOp *c, WChunk *dst, int r)
{
    WDatum none = {0};
    for (int k = c->sp.nleft; k < c->sp.ncols; k++) set_col(dst, k, r, none, true);
}

/* The function's columns of `src` as a chunk (the condition refers to them from $0). */
static WChunk function_view(CorrelateOp *c, WChunk *src)
{
    WChunk v = *src;
    v.ncols = c->nf;
    v.types = src->types + c->sp.nleft;
    v.cols = src->cols + c->sp.nleft;
    return v;
}

/* With a condition: the element rows of one input row go through tmp and the filter. */
static bool filtered_row(CorrelateOp *c, const WChunk *in, int row, const WComposite *cx)
{
    WEvalCtx ec = {.arena = c->scratch, .cast = c->base.ctx->cast, .now_ms = c->base.ctx->start_ms, .clock = c->base.ctx->clock, .clock_ctx = c->base.ctx->clock_ctx,
                   .err = c->base.ctx->err};
    int n = cx ? cx->n : 0;
    int passed = 0;
    for (int k0 = 0; k0 < n;) {
        c->tmp->nrows = 0;
        for (; k0 < n; k0++) {
            int r = begin_row(c, c->tmp, in, row);
            if (r < 0) break;
            fill_element(c, c->tmp, r, cx, k0);
        }
        int m = c->tmp->nrows;
        memset(c->sel, 1, (size_t)m);
        WChunk view = function_view(c, c->tmp);
        if (!wexpr_filter(&ec, c->sp.cond, &view, c->sel)) return false;
        for (int i = 0; i < m; i++) {
            if (!c->sel[i]) continue;
            int r = begin_row(c, c->out, in, row);
            for (int k = c->sp.nleft; k < c->sp.ncols; k++) {
                c->out->cols[k].data[r] = c->tmp->cols[k].data[i];
                c->out->cols[k].nulls[r] = c->tmp->cols[k].nulls[i];
            }
            passed++;
        }
    }
    if (passed == 0 && c->sp.left_join) pad_nulls(c, c->out, begin_row(c, c->out, in, row));
    return true;
}

static void correlate_process(WOperator *op, int input, const WChunk *in)
{
    CorrelateOp *c = (CorrelateOp *)op;
    (void)input;
    if (in->nrows == 0) return;
    warena_reset(c->scratch);
    WVector cv = {.type = c->ct, .data = WA_ARRAY(c->scratch, WDatum, in->nrows),
                  .nulls = wa_zalloc(c->scratch, (size_t)in->nrows)};
    WEvalCtx ec = {.arena = c->scratch, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .clock = op->ctx->clock, .clock_ctx = op->ctx->clock_ctx, .err = op->ctx->err};
    if (!wexpr_eval(&ec, c->sp.collection, in, NULL, &cv)) return;
    wchunk_reset(c->out);
    for (int row = 0; row < in->nrows; row++) {
        const WComposite *cx = cv.nulls[row] ? NULL : cv.data[row].cx;
        if (c->sp.cond) {
            if (!filtered_row(c, in, row, cx)) return;
            continue;
        }
        int n = cx ? cx->n : 0;
        for (int k = 0; k < n; k++) fill_element(c, c->out, begin_row(c, c->out, in, row), cx, k);
        if (n == 0 && c->sp.left_join) pad_nulls(c, c->out, begin_row(c, c->out, in, row));
    }
    flush(c);
}

static void correlate_destroy(WOperator *op)
{
    CorrelateOp *c = (CorrelateOp *)op;
    wchunk_free(c->out);
    wchunk_free(c->tmp);
    warena_delete(c->scratch);
    free(c->sel);
    free(c);
}

static const WOpOps CORRELATE_OPS = {.process = correlate_process, .destroy = correlate_destroy};

WOperator *wop_correlate_new(WExecCtx *ctx, const WCorrelateSpec *spec)
{
    CorrelateOp *c = wcalloc(1, sizeof *c);
    wop_init(&c->base, &CORRELATE_OPS, ctx, 1, spec->ncols, spec->types, spec->names);
    c->sp = *spec;
    c->nf = spec->ncols - spec->nleft;
    c->ct = spec->collection->type;
    c->row_elem = c->ct->id != WT_MAP && c->ct->elem && c->ct->elem->id == WT_ROW;
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    c->out = wchunk_new(spec->ncols, spec->types, cap);
    c->tmp = wchunk_new(spec->ncols, spec->types, cap);
    c->scratch = warena_new(0);
    c->sel = wmalloc((size_t)cap);
    return &c->base;
}
