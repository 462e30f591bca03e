/*
 * local_agg.c — LocalGroupAggregate (Flink MiniBatchLocalGroupAggFunction), see stateful.h.
 *
 * process() gets a whole mini-batch (the framework's bundle, minibatch.h): its rows are grouped by
 * key in a per-call table, each key gets fresh accumulators (accumulators.h) that accumulate /
 * retract the key's rows in input order, and before process() returns one +I row per key (in order
 * of first appearance, which the bundle made Flink's HashMap order) carries the key and the
 * partial accumulators (plan/agg_rules.h) to the exchange. Data views (DISTINCT value maps,
 * MIN/MAX value counts when retracting) live in this operator's keyed-state backend only while
 * the chunk is processed and are cleared when the key's row is written, so nothing is kept
 * across calls (the bundle is what waits for the batch boundary).
 * May call exec/operator.h, exec/accumulators.h, plan/agg_rules.h, state/, types/, common/.
 */
#include "stateful.h"
#include "accumulators.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../common/hash.h"
#include "chunk_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Group {
    WGroupKey key;                  /* first: chunk_groups.h */
    int first_row;
    WDatum *acc;
    uint8_t *nulls;
} Group;

typedef struct LocalAgg {
    WOperator base;
    int nkeys;
    int *keys;
    const WType **ktypes;
    bool datum_keys;                /* keys compared as values (no float/composite column) */
    int naggs;
    WStateBackend *backend;         /* data views, per chunk only */
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WArena parena;                  /* the partial layout */
    WAggPartial P;
    WChunk *out;
    /* per-call */
    WChunkGroups cg;                /* table, rows, key bytes; groups aliases cg.groups */
    Group *groups;
    WStrBuf tmp;
    int64_t rows_combined;
} LocalAgg;

static void prepare(LocalAgg *g, int nrows) { g->groups = wcg_prepare(&g->cg, nrows); }

static uint64_t key_hash(const LocalAgg *g, const WChunk *in, int r)
{
    uint64_t h = 0x6c6f63616cULL;
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        h = whash_combine(h, v->nulls[r] ? 0x6e756c6cULL : wdatum_hash(g->ktypes[k], v->data[r], 31));
    }
    return h;
}

static bool same_key(const LocalAgg *g, const WChunk *in, int a, int b)
{
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        if (v->nulls[a] != v->nulls[b]) return false;
        if (!v->nulls[a] && !wdatum_equal(g->ktypes[k], v->data[a], v->data[b])) return false;
    }
    return true;
}

/* Value keys: hash and compare the datums, encode a key only for a new group. */
static void group_rows_datum(LocalAgg *g, const WChunk *in)
{
    uint32_t mask = (uint32_t)g->cg.tcap - 1;
    for (int r = 0; r < in->nrows; r++) {
        uint64_t h = key_hash(g, in, r);
        uint32_t i = (uint32_t)h & mask;
        int gi;
        for (;;) {
            gi = g->cg.table[i];
            if (gi < 0) {
                gi = g->cg.ngroups++;
                Group *n = &g->groups[gi];
                n->key.hash = h;
                n->first_row = r;
                n->acc = NULL;
                n->nulls = NULL;
                wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keys);
                n->key.koff = (uint32_t)g->cg.kbytes.len;
                n->key.klen = (uint32_t)g->tmp.len;
                wsb_appendn(&g->cg.kbytes, g->tmp.buf, g->tmp.len);
                g->cg.table[i] = gi;
                break;
            }
            const Group *o = &g->groups[gi];
            if (o->key.hash == h && same_key(g, in, o->first_row, r)) break;
            i = (i + 1) & mask;
        }
        g->cg.rows[r] = gi;
    }
}

static void group_rows(LocalAgg *g, const WChunk *in)
{
    if (g->datum_keys) {
        group_rows_datum(g, in);
        return;
    }
    for (int r = 0; r < in->nrows; r++) {
        wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keys);
        bool added;
        int gi = wcg_find_or_add(&g->cg, g->tmp.buf, g->tmp.len, whash_bytes(g->tmp.buf, g->tmp.len, 17), &added);
        if (added) {
            Group *n = &g->groups[gi];
            n->first_row = r;
            n->acc = NULL;
            n->nulls = NULL;
        }
        g->cg.rows[r] = gi;
    }
}

static void set_key(LocalAgg *g, const Group *gr)
{
    wstate_set_key(g->backend, g->cg.kbytes.buf + gr->key.koff, gr->key.klen);
}

static void flush_out(LocalAgg *g)
{
    if (g->out->nrows) {
        wop_emit(&g->base, g->out);
        wchunk_reset(g->out);
    }
}

static void la_process(WOperator *op, int input, const WChunk *in)
{
    LocalAgg *g = (LocalAgg *)op;
    (void)input;
    if (!in->nrows) return;
    warena_reset(&g->scratch);
    g->ac.now = wexec_now(op->ctx);
    prepare(g, in->nrows);
    group_rows(g, in);
    const WAccLayout *L = g->L;
    int nf = L->nfields;
    int cur = -1;
    for (int r = 0; r < in->nrows; r++) {
        int gi = g->cg.rows[r];
        Group *gr = &g->groups[gi];
        if (!gr->acc) {
            gr->acc = wa_alloc(&g->scratch, sizeof(WDatum) * (size_t)nf);
            gr->nulls = wa_alloc(&g->scratch, (size_t)nf);
            wacc_create(L, gr->acc, gr->nulls);
        }
        if (L->has_views && cur != gi) {
            set_key(g, gr);
            cur = gi;
        }
        if (wrowkind_is_retract((WRowKind)in->kinds[r])) wacc_retract(&g->ac, gr->acc, gr->nulls, in, r);
        else wacc_accumulate(&g->ac, gr->acc, gr->nulls, in, r);
    }
    g->rows_combined += in->nrows - g->cg.ngroups;
    WChunk *o = g->out;
    for (int gi = 0; gi < g->cg.ngroups; gi++) {
        Group *gr = &g->groups[gi];
        if (o->nrows >= o->cap) flush_out(g);
        int row = wchunk_add_row(o, WRK_INSERT);
        for (int k = 0; k < g->nkeys; k++) {
            const WVector *v = &in->cols[g->keys[k]];
            o->cols[k].nulls[row] = v->nulls[gr->first_row];
            o->cols[k].data[row] = v->nulls[gr->first_row]
                                       ? v->data[gr->first_row]
                                       : wdatum_copy(o->arena, o->types[k], v->data[gr->first_row]);
        }
        if (L->has_views) set_key(g, gr);
        wacc_write_partial(&g->ac, &g->P, gr->acc, gr->nulls, o, row, g->nkeys);
        if (L->has_views) wacc_cleanup(L);
    }
    flush_out(g);
}

static void la_metrics(WOperator *op, WOpMetrics *m)
{
    LocalAgg *g = (LocalAgg *)op;
    wop_metrics_value(m, "combinedRecords", g->rows_combined);
}

static void la_destroy(WOperator *op)
{
    LocalAgg *g = (LocalAgg *)op;
    wacc_ctx_free(&g->ac);
    wacc_layout_free(g->L);
    wstate_backend_free(g->backend);
    warena_free(&g->scratch);
    warena_free(&g->parena);
    wchunk_free(g->out);
    wsb_free(&g->tmp);
    wcg_free(&g->cg);
    free(g->keys);
    free(g->ktypes);
    free(g);
}

static const WOpOps LA_OPS = {.process = la_process, .destroy = la_destroy, .metrics = la_metrics};

WOperator *wop_local_agg_new(WExecCtx *ctx, const WLocalAggSpec *spec)
{
    for (int k = 0; k < spec->nkeys; k++)
        if (spec->keys[k] < 0 || spec->keys[k] >= spec->in_ncols) {
            werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: grouping key column %d out of range", spec->keys[k]);
            return NULL;
        }
    for (int i = 0; i < spec->naggs; i++) {
        const WAggCall *c = &spec->aggs[i];
        for (int k = 0; k < c->nargs; k++)
            if (c->args[k] < 0 || c->args[k] >= spec->in_ncols) {
                werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: argument column %d out of range", c->args[k]);
                return NULL;
            }
        if (c->filter_col >= spec->in_ncols) {
            werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: FILTER column %d out of range", c->filter_col);
            return NULL;
        }
        if (!wagg_mergeable(c, spec->input_retracts)) {
            werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: %s cannot be merged from partial accumulators",
                     c->name ? c->name : "?");
            return NULL;
        }
    }
    LocalAgg *g = wcalloc(1, sizeof *g);
    warena_init(&g->parena, 0);
    WSchema in = {spec->in_ncols, NULL, spec->in_types};
    wagg_partial_layout(&g->parena, spec->aggs, spec->naggs, &in, spec->input_retracts, false, &g->P);
    if (spec->out.ncols != spec->nkeys + g->P.ncols) {
        werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: output has %d columns, expected %d",
                 spec->out.ncols, spec->nkeys + g->P.ncols);
        warena_free(&g->parena);
        free(g);
        return NULL;
    }
    wop_init(&g->base, &LA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "LocalGroupAggregate";
    g->nkeys = spec->nkeys;
    g->keys = wmalloc(sizeof(int) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    g->ktypes = wmalloc(sizeof(WType *) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    g->datum_keys = true;
    for (int k = 0; k < spec->nkeys; k++) {
        g->keys[k] = spec->keys[k];
        const WType *t = spec->in_types[spec->keys[k]];
        g->ktypes[k] = t;
        if (wtype_is_approx(t) || wtype_is_composite(t) || t->id == WT_DECIMAL || wtype_is_timestamp(t))
            g->datum_keys = false;
    }
    g->naggs = spec->naggs;
    warena_init(&g->scratch, 0);
    wcg_init(&g->cg, sizeof(Group));
    wsb_init(&g->tmp);
    g->backend = wexec_new_backend(ctx, "LocalGroupAggregate");
    g->out = wchunk_new(spec->out.ncols, spec->out.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    g->L = wacc_layout_new(spec->aggs, spec->naggs, spec->in_types, spec->input_retracts, g->backend,
                           "localGroupAggregate", 0, ctx->err);
    if (!g->L) {
        wop_free(&g->base);
        return NULL;
    }
    wacc_ctx_init(&g->ac, g->L, &g->scratch);
    g->ac.cast = ctx->cast;
    return &g->base;
}
