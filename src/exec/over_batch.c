/*
 * over_batch.c — the batch OverAggregate: the input's final rows wait in a WSortBuf (a
 * retraction removes an equal earlier row); at the end of input they are sorted by the partition
 * keys then the order keys, and each partition is evaluated window by window:
 *   ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK (peers: equal order keys), CUME_DIST (rows up to
 *   this one, peers not included, as Flink 2.3 computes it), NTILE,
 *   LAG / LEAD (offset, default), and aggregates over each row's frame (over_frame.c) through
 *   the accumulator library: a frame that keeps its start and grows is accumulated
 *   incrementally, any other frame is accumulated afresh.
 * Rows leave as +I in sorted order with their results appended. Operator memory only (Flink's
 * batch node has no state): the accumulators' data views live in a private heap backend.
 * See over_batch.h. May call exec/operator, exec/sort_buffer, exec/accumulators, state/, types/.
 */
#include "over_batch.h"
#include "accumulators.h"
#include "../types/compare.h"
#include "../types/decimal.h"
#include "../common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct WinEval {
    const WOverWindow *w;
    int first_col;                  /* output column of its first call */
    int naggs;
    WAggCall *aggs;                 /* the aggregate calls, in call order */
    int *agg_of;                    /* per call: index among aggs, -1 for other functions */
    WAccLayout *L;
    WAccCtx ac;
    WDatum *acc, *vals;
    uint8_t *accn, *valn;
} WinEval;

typedef struct OverBatchOp {
    WOperator base;
    int ncols, out_ncols;
    const WType **types, **otypes;
    int nkeys, nsort;
    int *keys;
    WSortKeySpec *sort;
    WSortBuf buf;
    int nwin;
    WinEval *win;
    int ncalls;                     /* all calls, output columns ncols .. ncols + ncalls - 1 */
    WStateBackend *be;
    WArena scratch;
    int64_t unmatched;
    bool range_offsets;             /* some window has a RANGE n PRECEDING / FOLLOWING bound */
} OverBatchOp;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

static void ob_process(WOperator *op, int input, const WChunk *in)
{
    OverBatchOp *o = (OverBatchOp *)op;
    (void)input;
    o->unmatched += wsortbuf_apply(&o->buf, in);
}

/* Rows i and j agree on columns cols[0..n) (NULL equals NULL). */
static bool same_cols(const WSortBuf *b, int64_t i, int64_t j, int n, const int *cols)
{
    for (int k = 0; k < n; k++) {
        bool ni, nj;
        WDatum vi = wsortbuf_get(b, i, cols[k], &ni);
        WDatum vj = wsortbuf_get(b, j, cols[k], &nj);
        if (ni != nj) return false;
        if (!ni && wdatum_compare(b->types[cols[k]], vi, vj) != 0) return false;
    }
    return true;
}

static bool same_order(const OverBatchOp *o, int64_t i, int64_t j)
{
    for (int k = 0; k < o->nsort; k++) {
        int c = o->sort[k].col;
        bool ni, nj;
        WDatum vi = wsortbuf_get(&o->buf, i, c, &ni);
        WDatum vj = wsortbuf_get(&o->buf, j, c, &nj);
        if (ni != nj) return false;
        if (!ni && wdatum_compare(o->types[c], vi, vj) != 0) return false;
    }
    return true;
}

/* The order key as a number for RANGE offsets (milliseconds for time types). */
static double key_number(const WType *t, WDatum v)
{
    switch (t->id) {
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: case WT_TIME: return (double)v.i;
    case WT_DATE: return (double)v.i * 86400000.0;
    case WT_FLOAT: case WT_DOUBLE: return v.d;
    case WT_DECIMAL: return wdec_to_double(v.dec, t->scale);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return (double)v.ts.ms;
    default: return 0;
    }
}

static void source_row(const WSortBuf *b, int64_t id, const WChunk **c, int *row)
{
    *c = b->chunks[b->chunk_of[id]];
    *row = b->row_of[id];
}

/* Results of one partition: res[call * n + row]. */
typedef struct PartRes {
    WDatum *v;
    uint8_t *null;
} PartRes;

static void eval_aggs(OverBatchOp *o, WinEval *we, const WOverPart *part, const int64_t *ids, PartRes *res)
{
    int64_t n = part->n;
    int64_t plo = -1, phi = -2;
    bool have = false;
    bool empty_ready = false;
    WDatum *ev = xmalloc(sizeof *ev * (size_t)we->naggs);
    uint8_t *en = xmalloc((size_t)we->naggs);
    for (int64_t i = 0; i < n && !o->base.ctx->err->set; i++) {
        int64_t lo, hi;
        const WDatum *vals = we->vals;
        const uint8_t *valn = we->valn;
        if (!wover_frame(we->w, part, i, &lo, &hi)) {
            if (!empty_ready) {
                wacc_cleanup(we->L);
                wacc_create(we->L, we->acc, we->accn);
                wacc_get_value(&we->ac, we->acc, we->accn, ev, en);
                empty_ready = true;
                have = false;
            }
            vals = ev;
            valn = en;
        } else if (have && lo == plo && hi == phi) {
            /* same frame: same values */
        } else {
            int64_t from = lo;
            if (!(have && lo == plo && hi > phi)) {
                wacc_cleanup(we->L);
                wacc_create(we->L, we->acc, we->accn);
            } else {
                from = phi + 1;
            }
            for (int64_t j = from; j <= hi; j++) {
                const WChunk *c;
                int row;
                source_row(&o->buf, ids[j], &c, &row);
                wacc_accumulate(&we->ac, we->acc, we->accn, c, row);
            }
            wacc_get_value(&we->ac, we->acc, we->accn, we->vals, we->valn);
            plo = lo;
            phi = hi;
            have = true;
        }
        for (int k = 0; k < we->w->ncalls; k++) {
            int ai = we->agg_of[k];
            if (ai < 0) continue;
            int call = we->first_col - o->ncols + k;
            res->v[(int64_t)call * n + i] = vals[ai];
            res->null[(int64_t)call * n + i] = valn[ai];
        }
    }
    free(ev);
    free(en);
}

static void eval_functions(OverBatchOp *o, WinEval *we, const WOverPart *part, const int64_t *ids,
                           const int64_t *dense, PartRes *res)
{
    int64_t n = part->n;
    for (int k = 0; k < we->w->ncalls; k++) {
        const WOverCall *c = &we->w->calls[k];
        if (c->fn == WOF_AGG) continue;
        int call = we->first_col - o->ncols + k;
        WDatum *v = res->v + (int64_t)call * n;
        uint8_t *nl = res->null + (int64_t)call * n;
        for (int64_t i = 0; i < n; i++) {
            nl[i] = 0;
            switch (c->fn) {
            case WOF_ROW_NUMBER: v[i].i = i + 1; break;
            case WOF_RANK: v[i].i = part->peer_lo[i] + 1; break;
            case WOF_DENSE_RANK: v[i].i = dense[i] + 1; break;
            case WOF_PERCENT_RANK: v[i].d = n > 1 ? (double)part->peer_lo[i] / (double)(n - 1) : 0.0; break;
            case WOF_CUME_DIST: /* Flink 2.3 counts the rows up to this one, not its peers */
                v[i].d = (double)(i + 1) / (double)n; break;
            case WOF_NTILE: v[i].i = wover_ntile(n, c->n, i); break;
            case WOF_LAG: case WOF_LEAD: {
                int64_t j = c->fn == WOF_LAG ? i - c->n : i + c->n;
                bool isnull;
                if (j >= 0 && j < n) {
                    v[i] = wsortbuf_get(&o->buf, ids[j], c->arg, &isnull);
                } else if (c->default_col >= 0) {
                    v[i] = wsortbuf_get(&o->buf, ids[i], c->default_col, &isnull);
                } else {
                    isnull = true;
                    v[i].i = 0;
                }
                nl[i] = isnull;
                break;
            }
            case WOF_AGG: break;
            }
        }
    }
}

static void emit_partition(OverBatchOp *o, const int64_t *ids, int64_t n, const PartRes *res, WChunk **out)
{
    for (int64_t i = 0; i < n && !o->base.ctx->err->set; i++) {
        if ((*out)->nrows >= (*out)->cap) {
            wop_emit(&o->base, *out);
            wchunk_reset(*out);
        }
        WChunk *ch = *out;
        int r = wchunk_add_row(ch, WRK_INSERT);
        const WChunk *src;
        int row;
        source_row(&o->buf, ids[i], &src, &row);
        for (int c = 0; c < o->ncols; c++) {
            uint8_t isnull = src->cols[c].nulls[row];
            ch->cols[c].nulls[r] = isnull;
            ch->cols[c].data[r] = isnull ? src->cols[c].data[row] : wdatum_copy(ch->arena, ch->types[c], src->cols[c].data[row]);
        }
        for (int k = 0; k < o->ncalls; k++) {
            int c = o->ncols + k;
            uint8_t isnull = res->null[(int64_t)k * n + i];
            WDatum v = res->v[(int64_t)k * n + i];
            ch->cols[c].nulls[r] = isnull;
            ch->cols[c].data[r] = isnull ? (WDatum){0} : wdatum_copy(ch->arena, ch->types[c], v);
        }
    }
}

static void eval_partition(OverBatchOp *o, const int64_t *ids, int64_t n, WChunk **out)
{
    int64_t *plo = xmalloc(sizeof *plo * (size_t)n), *phi = xmalloc(sizeof *phi * (size_t)n);
    int64_t *dense = xmalloc(sizeof *dense * (size_t)n);
    double *key = NULL;
    uint8_t *key_null = NULL;
    /* peers */
    int64_t g = 0;
    for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        while (j < n && same_order(o, ids[i], ids[j])) j++;
        for (int64_t k = i; k < j; k++) { plo[k] = i; phi[k] = j - 1; dense[k] = g; }
        g++;
        i = j;
    }
    if (o->range_offsets && o->nsort >= 1) {
        key = xmalloc(sizeof *key * (size_t)n);
        key_null = xmalloc((size_t)n);
        int c = o->sort[0].col;
        for (int64_t i = 0; i < n; i++) {
            bool isnull;
            WDatum v = wsortbuf_get(&o->buf, ids[i], c, &isnull);
            key_null[i] = isnull;
            double d = isnull ? 0 : key_number(o->types[c], v);
            key[i] = o->sort[0].desc ? -d : d;
        }
    }
    WOverPart part = {.n = n, .peer_lo = plo, .peer_hi = phi, .key = key, .key_null = key_null};
    PartRes res;
    size_t cells = (size_t)(o->ncalls ? o->ncalls : 1) * (size_t)n;
    res.v = xmalloc(sizeof *res.v * cells);
    res.null = xmalloc(cells);
    memset(res.v, 0, sizeof *res.v * cells);
    memset(res.null, 1, cells);
    for (int w = 0; w < o->nwin; w++) {
        WinEval *we = &o->win[w];
        if (we->naggs) eval_aggs(o, we, &part, ids, &res);
        eval_functions(o, we, &part, ids, dense, &res);
    }
    emit_partition(o, ids, n, &res, out);
    free(res.v);
    free(res.null);
    free(plo);
    free(phi);
    free(dense);
    free(key);
    free(key_null);
    warena_reset(&o->scratch);
}

static void ob_end(WOperator *op)
{
    OverBatchOp *o = (OverBatchOp *)op;
    WSortBuf *b = &o->buf;
    if (!op->ctx->err->set) {
        int64_t *idx = xmalloc(sizeof *idx * (size_t)(b->live ? b->live : 1));
        int64_t n = wsortbuf_sorted_live(b, idx);
        int cap = op->ctx->chunk_rows > 0 ? op->ctx->chunk_rows : WCHUNK_CAP;
        WChunk *out = wchunk_new(o->out_ncols, o->otypes, cap);
        for (int64_t s = 0; s < n && !op->ctx->err->set;) {
            int64_t e = s + 1;
            while (e < n && same_cols(b, idx[s], idx[e], o->nkeys, o->keys)) e++;
            eval_partition(o, idx + s, e - s, &out);
            s = e;
        }
        if (out->nrows && !op->ctx->err->set) wop_emit(op, out);
        wchunk_free(out);
        free(idx);
    }
    wop_emit_end(op);
}

static void ob_destroy(WOperator *op)
{
    OverBatchOp *o = (OverBatchOp *)op;
    for (int w = 0; w < o->nwin; w++) {
        WinEval *we = &o->win[w];
        if (we->L) {
            wacc_ctx_free(&we->ac);
            wacc_layout_free(we->L);
        }
        free(we->aggs);
        free(we->agg_of);
        free(we->acc);
        free(we->accn);
        free(we->vals);
        free(we->valn);
    }
    free(o->win);
    wsortbuf_free(&o->buf);
    if (o->be) wstate_backend_free(o->be);
    warena_free(&o->scratch);
    free(o->keys);
    free(o->sort);
    free(o->types);
    free(o->otypes);
    free(o);
}

static void ob_metrics(WOperator *op, WOpMetrics *m)
{
    OverBatchOp *o = (OverBatchOp *)op;
    wop_metrics_value(m, "bufferedRows", o->buf.live);
    wop_metrics_value(m, "unmatchedRetractions", o->unmatched);
}

static const WOpOps OVER_BATCH_OPS = {.process = ob_process, .end_input = ob_end, .destroy = ob_destroy,
                                      .metrics = ob_metrics};

static bool col_ok(int c, int n) { return c >= 0 && c < n; }

WOperator *wop_over_batch_new(WExecCtx *ctx, const WOverBatchSpec *spec)
{
    OverBatchOp *o = wcalloc(1, sizeof *o);
    o->ncols = spec->in_ncols;
    o->types = xmalloc(sizeof *o->types * (size_t)(o->ncols ? o->ncols : 1));
    memcpy(o->types, spec->in_types, sizeof *o->types * (size_t)o->ncols);
    const WOverSpec *ov = spec->over;
    o->nwin = ov ? ov->nwindows : 0;
    for (int w = 0; w < o->nwin; w++) o->ncalls += ov->windows[w].ncalls;
    o->out_ncols = o->ncols + o->ncalls;
    o->otypes = xmalloc(sizeof *o->otypes * (size_t)o->out_ncols);
    for (int i = 0; i < o->ncols; i++) o->otypes[i] = o->types[i];
    for (int w = 0, c = o->ncols; w < o->nwin; w++)
        for (int k = 0; k < ov->windows[w].ncalls; k++) o->otypes[c++] = ov->windows[w].calls[k].type;
    wop_init(&o->base, &OVER_BATCH_OPS, ctx, 1, o->out_ncols, o->otypes, spec->out.names);
    o->nkeys = spec->nkeys;
    o->nsort = spec->nsort;
    o->keys = xmalloc(sizeof *o->keys * (size_t)(o->nkeys ? o->nkeys : 1));
    o->sort = xmalloc(sizeof *o->sort * (size_t)(o->nkeys + o->nsort + 1));
    bool ok = !ov || o->nwin > 0;
    for (int k = 0; k < o->nkeys; k++) {
        o->keys[k] = spec->keys[k];
        o->sort[k] = (WSortKeySpec){spec->keys[k], false, true};
        ok = ok && col_ok(spec->keys[k], o->ncols);
    }
    for (int k = 0; k < o->nsort; k++) {
        o->sort[o->nkeys + k] = spec->sort[k];
        ok = ok && col_ok(spec->sort[k].col, o->ncols);
    }
    warena_init(&o->scratch, 0);
    /* order keys only (peers) are kept in o->sort after the partition keys: shift the view */
    wsortbuf_init(&o->buf, o->ncols, o->types, ok ? o->nkeys + o->nsort : 0, o->sort, true);
    memmove(o->sort, o->sort + o->nkeys, sizeof *o->sort * (size_t)o->nsort);
    if (!ok || !ov) {
        werr_set(ctx->err, WEXC_TABLE, "OverAggregate: invalid window specification");
        return &o->base;
    }
    WStateBackendConfig cfg = {.operator_name = "OverAggregate", .max_parallelism = 128};
    o->be = wstate_heap_new(&cfg);
    wstate_set_key(o->be, "k", 1);
    o->win = wcalloc((size_t)o->nwin, sizeof *o->win);
    for (int w = 0, col = o->ncols; w < o->nwin; w++) {
        const WOverWindow *win = &ov->windows[w];
        WinEval *we = &o->win[w];
        we->w = win;
        we->first_col = col;
        col += win->ncalls;
        if (!win->rows && (win->lower.kind == WOB_PRECEDING || win->lower.kind == WOB_FOLLOWING ||
                           win->upper.kind == WOB_PRECEDING || win->upper.kind == WOB_FOLLOWING))
            o->range_offsets = true;
        we->aggs = xmalloc(sizeof *we->aggs * (size_t)(win->ncalls ? win->ncalls : 1));
        we->agg_of = xmalloc(sizeof *we->agg_of * (size_t)(win->ncalls ? win->ncalls : 1));
        for (int k = 0; k < win->ncalls; k++) {
            const WOverCall *c = &win->calls[k];
            we->agg_of[k] = -1;
            if (c->fn == WOF_AGG) {
                we->agg_of[k] = we->naggs;
                we->aggs[we->naggs++] = c->agg;
                for (int a = 0; a < c->agg.nargs; a++) ok = ok && col_ok(c->agg.args[a], o->ncols);
            } else if (c->fn == WOF_LAG || c->fn == WOF_LEAD) {
                ok = ok && col_ok(c->arg, o->ncols) && (c->default_col < 0 || col_ok(c->default_col, o->ncols));
            }
        }
        if (!ok) {
            werr_set(ctx->err, WEXC_TABLE, "OverAggregate: argument column index out of range");
            return &o->base;
        }
        if (we->naggs) {
            char name[32];
            snprintf(name, sizeof name, "window%d", w);
            we->L = wacc_layout_new(we->aggs, we->naggs, o->types, false, o->be, name, 0, ctx->err);
            if (!we->L) return &o->base;
            wacc_ctx_init(&we->ac, we->L, &o->scratch);
            we->ac.cast = ctx->cast;
            we->acc = wcalloc((size_t)we->L->nfields, sizeof *we->acc);
            we->accn = wcalloc((size_t)we->L->nfields, 1);
            we->vals = wcalloc((size_t)we->naggs, sizeof *we->vals);
            we->valn = wcalloc((size_t)we->naggs, 1);
        }
    }
    return &o->base;
}
