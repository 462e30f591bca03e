/*
 * local_agg.c — LocalGroupAggregate (Flink MiniBatchLocalGroupAggFunction), see stateful.h.
 *
 * process() gets a whole mini-batch (the framework's bundle, minibatch.h): its rows are grouped by
 * key in a per-call table (here: datum hashes for keys compared as values, else the encoded key
 * bytes), and the local combiner (partial_agg.h) accumulates / retracts each key's rows into
 * fresh accumulators in input order and, before process() returns, emits one +I row per key (in
 * order of first appearance, which the bundle made Flink's HashMap order) with the key and the
 * partial accumulators (plan/agg_rules.h) to the exchange. Data views (DISTINCT value maps,
 * MIN/MAX value counts when retracting) live only while the chunk is processed, so nothing is
 * kept across calls (the bundle is what waits for the batch boundary).
 * May call exec/operator.h, exec/partial_agg.h, exec/accumulators.h, plan/agg_rules.h, state/,
 * types/, common/. */
#include "partial_agg.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../common/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct LocalAgg {
    WOperator base;
    WLocalCombiner c;               /* keys, accumulators, per-call groups (partial_agg.h) */
    const WType **ktypes;
    bool datum_keys;                /* keys compared as values (no float/composite column) */
} LocalAgg;

static uint64_t key_hash(const LocalAgg *g, const WChunk *in, int r)
{
    uint64_t h = 0x6c6f63616cULL;
    for (int k = 0; k < g->c.nkeys; k++) {
        const WVector *v = &in->cols[g->c.keys[k]];
        h = whash_combine(h, v->nulls[r] ? 0x6e756c6cULL : wdatum_hash(g->ktypes[k], v->data[r], 31));
    }
    return h;
}

static bool same_key(const LocalAgg *g, const WChunk *in, int a, int b)
{
    for (int k = 0; k < g->c.nkeys; k++) {
        const WVector *v = &in->cols[g->c.keys[k]];
        if (v->nulls[a] != v->nulls[b]) return false;
        if (!v->nulls[a] && !wdatum_equal(g->ktypes[k], v->data[a], v->data[b])) return false;
    }
    return true;
}

/* Value keys: hash and compare the datums, encode a key only for a new group. */
static void group_rows_datum(LocalAgg *g, const WChunk *in)
{
    WLocalCombiner *c = &g->c;
    uint32_t mask = (uint32_t)c->cg.tcap - 1;
    for (int r = 0; r < in->nrows; r++) {
        uint64_t h = key_hash(g, in, r);
        uint32_t i = (uint32_t)h & mask;
        int gi;
        for (;;) {
            gi = c->cg.table[i];
            if (gi < 0) {
                gi = c->cg.ngroups++;
                WLocalGroup *n = wlc_new_group(c, gi, r);
                n->key.hash = h;
                wrow_encode_chunk(&c->tmp, in, r, c->nkeys, c->keys);
                n->key.koff = (uint32_t)c->cg.kbytes.len;
                n->key.klen = (uint32_t)c->tmp.len;
                wsb_appendn(&c->cg.kbytes, c->tmp.buf, c->tmp.len);
                c->cg.table[i] = gi;
                break;
            }
            const WLocalGroup *o = &c->groups[gi];
            if (o->key.hash == h && same_key(g, in, o->first_row, r)) break;
            i = (i + 1) & mask;
        }
        c->cg.rows[r] = gi;
    }
}

static void group_rows(LocalAgg *g, const WChunk *in)
{
    if (g->datum_keys) {
        group_rows_datum(g, in);
        return;
    }
    WLocalCombiner *c = &g->c;
    for (int r = 0; r < in->nrows; r++) {
        wrow_encode_chunk(&c->tmp, in, r, c->nkeys, c->keys);
        bool added;
        int gi = wcg_find_or_add(&c->cg, c->tmp.buf, c->tmp.len, whash_bytes(c->tmp.buf, c->tmp.len, 17), &added);
        if (added) wlc_new_group(c, gi, r);
        c->cg.rows[r] = gi;
    }
}

static void la_process(WOperator *op, int input, const WChunk *in)
{
    LocalAgg *g = (LocalAgg *)op;
    (void)input;
    if (!in->nrows) return;
    wlc_begin(&g->c, op->ctx, in->nrows);
    group_rows(g, in);
    wlc_accumulate(&g->c, in, NULL, op->ctx->err);
    wlc_emit(&g->c, op, in, -1);
}

static void la_metrics(WOperator *op, WOpMetrics *m)
{
    LocalAgg *g = (LocalAgg *)op;
    wop_metrics_value(m, "combinedRecords", g->c.rows_combined);
}

static void la_destroy(WOperator *op)
{
    LocalAgg *g = (LocalAgg *)op;
    wlc_free(&g->c);
    free(g->ktypes);
    free(g);
}

static const WOpOps LA_OPS = {.process = la_process, .destroy = la_destroy, .metrics = la_metrics};

WOperator *wop_local_agg_new(WExecCtx *ctx, const WLocalAggSpec *spec)
{
    if (!wagg_check_key_cols(ctx->err, "LocalGroupAggregate", "grouping key", spec->keys, spec->nkeys,
                             spec->in_ncols) ||
        !wagg_check_partial_calls(ctx->err, "LocalGroupAggregate", spec->aggs, spec->naggs, spec->in_ncols, true,
                                  spec->input_retracts))
        return NULL;
    LocalAgg *g = wcalloc(1, sizeof *g);
    warena_init(&g->c.parena, 0);
    WSchema in = {spec->in_ncols, NULL, spec->in_types};
    wagg_partial_layout(&g->c.parena, spec->aggs, spec->naggs, &in, spec->input_retracts, false, &g->c.P);
    if (spec->out.ncols != spec->nkeys + g->c.P.ncols) {
        werr_set(ctx->err, WEXC_TABLE, "LocalGroupAggregate: output has %d columns, expected %d",
                 spec->out.ncols, spec->nkeys + g->c.P.ncols);
        warena_free(&g->c.parena);
        free(g);
        return NULL;
    }
    wop_init(&g->base, &LA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "LocalGroupAggregate";
    g->ktypes = wmalloc(sizeof(WType *) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    g->datum_keys = true;
    for (int k = 0; k < spec->nkeys; k++) {
        const WType *t = spec->in_types[spec->keys[k]];
        g->ktypes[k] = t;
        if (wtype_is_approx(t) || wtype_is_composite(t) || t->id == WT_DECIMAL || wtype_is_timestamp(t))
            g->datum_keys = false;
    }
    if (!wlc_open(&g->c, ctx, "LocalGroupAggregate", "localGroupAggregate", spec->nkeys, spec->keys, spec->aggs,
                  spec->naggs, spec->in_types, spec->input_retracts, &spec->out)) {
        wop_free(&g->base);
        return NULL;
    }
    return &g->base;
}
