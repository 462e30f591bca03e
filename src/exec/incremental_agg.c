/*
 * incremental_agg.c — IncrementalGroupAggregate (Flink MiniBatchIncrementalGroupAggFunction),
 * the PARTIAL global and FINAL local aggregate of a distinct split under mini-batch, see
 * stateful.h.
 *
 * process() gets a mini-batch (the framework's bundle, minibatch.h) of partial-accumulator rows
 * (keyed by the partial key: the original keys plus the hash buckets). Per partial key, fresh accumulators merge the key's rows; a DISTINCT
 * call counts only the values its value map in state (incrementalGroupAggregateState, the one
 * state this node keeps) did not hold yet, so the accumulators are the chunk's increments. Then
 * per final key (order of first appearance) the increments of its partial keys are merged and one
 * +I row carries the final key and the merged accumulators (without distinct maps) to the FINAL
 * GlobalGroupAggregate, which adds them up ($SUM0 for a COUNT, ...).
 * May call exec/operator.h, exec/partial_agg.h, exec/accumulators.h, plan/agg_rules.h, state/, types/, common/.
 */
#include "stateful.h"
#include "partial_agg.h"
#include "../types/row.h"
#include "../common/hash.h"
#include "chunk_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Group {
    WGroupKey key;                  /* first: chunk_groups.h */
    int first_row, last;            /* first row; last: chained rows or members */
} Group;

typedef struct Table {
    WChunkGroups cg;                /* rows: next row (partial groups) or next member (final groups) */
    Group *groups;                  /* = cg.groups */
} Table;

typedef struct IncrAgg {
    WOperator base;
    int nkeys, nfinal, naggs;
    int *pkeys, *fkeys;
    int64_t ttl_ms;
    WStateBackend *backend;
    WAccLayout *PL, *FL;
    WAccCtx pac, fac;
    WArena scratch, parena;
    WAggPartial PP, FP;
    WAggCall *fcalls;
    WChunk *mid, *out;
    Table pt, ft;
    WDatum *acc;
    uint8_t *accn;
    WStrBuf tmp;
    int64_t ttl_expired;
} IncrAgg;

static void table_prepare(Table *t, int n) { t->groups = wcg_prepare(&t->cg, n); }

/* Adds item `item` with key bytes k to t; returns its group. Items of a group are chained
   through t->cg.rows in insertion order. */
static int table_add(Table *t, const char *k, size_t klen, int item)
{
    t->cg.rows[item] = -1;
    bool added;
    int gi = wcg_find_or_add(&t->cg, k, klen, whash_bytes(k, klen, 29), &added);
    Group *g = &t->groups[gi];
    if (added) g->first_row = item;
    else t->cg.rows[g->last] = item;
    g->last = item;
    return gi;
}

static void table_free(Table *t) { wcg_free(&t->cg); }

static void flush_out(IncrAgg *g)
{
    if (g->out->nrows) {
        wop_emit(&g->base, g->out);
        wchunk_reset(g->out);
    }
}

static void ia_process(WOperator *op, int input, const WChunk *in)
{
    IncrAgg *g = (IncrAgg *)op;
    (void)input;
    if (!in->nrows) return;
    warena_reset(&g->scratch);
    g->pac.now = g->fac.now = wexec_now(op->ctx);
    /* partial keys */
    table_prepare(&g->pt, in->nrows);
    for (int r = 0; r < in->nrows; r++) {
        wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->pkeys);
        table_add(&g->pt, g->tmp.buf, g->tmp.len, r);
    }
    if (g->pt.cg.ngroups > g->mid->cap) {
        wchunk_free(g->mid);
        g->mid = wchunk_new(g->FP.ncols, g->FP.types, g->pt.cg.ngroups);
    }
    wchunk_reset(g->mid);
    /* per partial key: the chunk's increments against the distinct maps in state */
    for (int pi = 0; pi < g->pt.cg.ngroups; pi++) {
        const Group *pg = &g->pt.groups[pi];
        wstate_set_key(g->backend, g->pt.cg.kbytes.buf + pg->key.koff, pg->key.klen);
        wacc_create(g->PL, g->acc, g->accn);
        for (int r = pg->first_row; r >= 0; r = g->pt.cg.rows[r])
            wacc_merge_partial(&g->pac, &g->PP, g->acc, g->accn, in, r, g->nkeys);
        int row = wchunk_add_row(g->mid, WRK_INSERT);
        wacc_write_partial(&g->pac, &g->FP, g->acc, g->accn, g->mid, row, 0);
        /* value maps of MIN/MAX are increments too: only the distinct maps stay */
        if (g->PL->has_views) wacc_cleanup_values(g->PL);
    }
    /* per final key: the merged increments of its partial keys */
    table_prepare(&g->ft, g->pt.cg.ngroups);
    for (int pi = 0; pi < g->pt.cg.ngroups; pi++) {
        wrow_encode_chunk(&g->tmp, in, g->pt.groups[pi].first_row, g->nfinal, g->fkeys);
        table_add(&g->ft, g->tmp.buf, g->tmp.len, pi);
    }
    WChunk *o = g->out;
    for (int fi = 0; fi < g->ft.cg.ngroups; fi++) {
        const Group *fg = &g->ft.groups[fi];
        if (g->FL->has_views) wstate_set_key(g->backend, g->ft.cg.kbytes.buf + fg->key.koff, fg->key.klen);
        wacc_create(g->FL, g->acc, g->accn);
        for (int pi = fg->first_row; pi >= 0; pi = g->ft.cg.rows[pi])
            wacc_merge_partial(&g->fac, &g->FP, g->acc, g->accn, g->mid, pi, 0);
        if (o->nrows >= o->cap) flush_out(g);
        int row = wchunk_add_row(o, WRK_INSERT);
        int r0 = g->pt.groups[fg->first_row].first_row;
        for (int k = 0; k < g->nfinal; k++) {
            o->cols[k].data[row] = in->cols[g->fkeys[k]].data[r0];
            o->cols[k].nulls[row] = in->cols[g->fkeys[k]].nulls[r0];
        }
        wacc_write_partial(&g->fac, &g->FP, g->acc, g->accn, o, row, g->nfinal);
        if (g->FL->has_views) wacc_cleanup(g->FL);
    }
    flush_out(g);
}

static void ia_metrics(WOperator *op, WOpMetrics *m)
{
    IncrAgg *g = (IncrAgg *)op;
    int n;
    WStateStats *st = wstate_stats_all(g->backend, &n);
    int64_t entries = 0, bytes = 0;
    for (int i = 0; i < n; i++) {       /* every state: the accumulators and their data views */
        entries += st[i].entries;
        bytes += st[i].bytes;
    }
    free(st);
    wop_metrics_state(m, "incrementalGroupAggregateState", entries, bytes);
    wop_metrics_value(m, "ttlExpiredRecords", g->ttl_expired);
}

static void ia_destroy(WOperator *op)
{
    IncrAgg *g = (IncrAgg *)op;
    wacc_ctx_free(&g->pac);
    wacc_ctx_free(&g->fac);
    wacc_layout_free(g->PL);
    wacc_layout_free(g->FL);
    wstate_backend_free(g->backend);
    warena_free(&g->scratch);
    warena_free(&g->parena);
    wchunk_free(g->mid);
    wchunk_free(g->out);
    table_free(&g->pt);
    table_free(&g->ft);
    wsb_free(&g->tmp);
    free(g->pkeys);
    free(g->fkeys);
    free(g->acc);
    free(g->accn);
    free(g);
}

static const WOpOps IA_OPS = {.process = ia_process, .destroy = ia_destroy, .metrics = ia_metrics};

WOperator *wop_incremental_agg_new(WExecCtx *ctx, const WIncrementalAggSpec *spec)
{
    if (!wagg_check_key_cols(ctx->err, "IncrementalGroupAggregate", "final key", spec->final_keys,
                             spec->nfinal_keys, spec->nkeys) ||
        !wagg_check_partial_calls(ctx->err, "IncrementalGroupAggregate", spec->aggs, spec->naggs, spec->agg_ncols,
                                  false, spec->input_retracts))
        return NULL;
    IncrAgg *g = wcalloc(1, sizeof *g);
    warena_init(&g->parena, 0);
    WSchema ain = {spec->agg_ncols, NULL, spec->agg_types};
    wagg_partial_layout(&g->parena, spec->aggs, spec->naggs, &ain, spec->input_retracts, false, &g->PP);
    wagg_partial_layout(&g->parena, spec->aggs, spec->naggs, &ain, spec->input_retracts, true, &g->FP);
    if (spec->in_ncols != spec->nkeys + g->PP.ncols || spec->out.ncols != spec->nfinal_keys + g->FP.ncols) {
        werr_set(ctx->err, WEXC_TABLE, "IncrementalGroupAggregate: input has %d columns, expected %d",
                 spec->in_ncols, spec->nkeys + g->PP.ncols);
        warena_free(&g->parena);
        free(g);
        return NULL;
    }
    wop_init(&g->base, &IA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "IncrementalGroupAggregate";
    g->nkeys = spec->nkeys;
    g->nfinal = spec->nfinal_keys;
    g->naggs = spec->naggs;
    g->pkeys = wmalloc(sizeof(int) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    for (int k = 0; k < spec->nkeys; k++) g->pkeys[k] = k;
    g->fkeys = wmalloc(sizeof(int) * (size_t)(spec->nfinal_keys ? spec->nfinal_keys : 1));
    for (int k = 0; k < spec->nfinal_keys; k++) g->fkeys[k] = spec->final_keys[k];
    g->ttl_ms = spec->ttl_ms > 0 ? spec->ttl_ms : 0;
    warena_init(&g->scratch, 0);
    wsb_init(&g->tmp);
    wcg_init(&g->pt.cg, sizeof(Group));
    wcg_init(&g->ft.cg, sizeof(Group));
    g->backend = wexec_new_backend(ctx, "IncrementalGroupAggregate");
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    g->out = wchunk_new(spec->out.ncols, spec->out.types, cap);
    g->mid = wchunk_new(g->FP.ncols, g->FP.types, cap);
    g->fcalls = WA_ARRAY(&g->parena, WAggCall, spec->naggs ? spec->naggs : 1);
    for (int i = 0; i < spec->naggs; i++) {
        g->fcalls[i] = spec->aggs[i];
        g->fcalls[i].distinct = false;
    }
    g->PL = wacc_layout_new(spec->aggs, spec->naggs, spec->agg_types, spec->input_retracts, g->backend,
                            "incrementalGroupAggregateState", g->ttl_ms, ctx->err);
    g->FL = g->PL ? wacc_layout_new(g->fcalls, spec->naggs, spec->agg_types, spec->input_retracts, g->backend,
                                    "incrementalGroupAggregateState$final", g->ttl_ms, ctx->err) : NULL;
    if (!g->PL || !g->FL) {
        wop_free(&g->base);
        return NULL;
    }
    int nf = g->PL->nfields > g->FL->nfields ? g->PL->nfields : g->FL->nfields;
    g->acc = wcalloc((size_t)nf, sizeof(WDatum));
    g->accn = wcalloc((size_t)nf, 1);
    wacc_ctx_init(&g->pac, g->PL, &g->scratch);
    wacc_ctx_init(&g->fac, g->FL, &g->scratch);
    g->pac.cast = g->fac.cast = ctx->cast;
    return &g->base;
}
