/*
 * global_agg.c — GlobalGroupAggregate (Flink MiniBatchGlobalGroupAggFunction), see stateful.h.
 *
 * process() gets a mini-batch of partial-accumulator rows (the framework's bundle, minibatch.h):
 * rows are grouped by key (order of first appearance); per key the accumulators are read from state (globalGroupAggregateState, TTL
 * spec->ttl_ms), the previous result is taken, every partial row of the key is merged in input
 * order (wacc_merge_partial), and Flink's emission follows: a key without state emits +I; a key
 * with state emits -U(old) (generate_update_before) and +U(new) when the result changed, or
 * always when TTL is enabled; when the record count reaches zero (input with retractions) a key
 * with state emits -D(old) and all its state is cleared. Accumulator rows for a key whose state
 * expired count in ttlExpiredRecords.
 * May call exec/operator.h, exec/partial_agg.h, exec/accumulators.h, plan/agg_rules.h, state/, types/, common/.
 */
#include "stateful.h"
#include "partial_agg.h"
#include "../types/row.h"
#include "../common/hash.h"
#include "chunk_groups.h"
#include "../state/prefetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Group {
    uint64_t hash;
    int first_row, last_row;
    uint32_t koff, klen;
} Group;

typedef struct GlobalAgg {
    WOperator base;
    int nkeys;
    int naggs;
    bool gen_ub, counted;           /* counted: the rows carry a record count */
    int64_t ttl_ms;
    char *state_name;
    WStateBackend *backend;
    WState *acc_state;
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WArena parena;
    WAggPartial P;
    WChunk *out;
    WDatum *prev, *cur, *acc;
    uint8_t *prevn, *curn, *accn;
    /* per-call */
    WChunkGroups cg;                /* table, next row of each row's group, key bytes */
    Group *groups;                  /* = cg.groups */
    int *keycols;
    WStrBuf tmp;
    int64_t ttl_expired;
} GlobalAgg;

static void prepare(GlobalAgg *g, int nrows) { g->groups = wcg_prepare(&g->cg, nrows); }

/* Groups of rows with equal keys, each a linked list of rows in input order. */
static void group_rows(GlobalAgg *g, const WChunk *in)
{
    uint32_t mask = (uint32_t)g->cg.tcap - 1;
    for (int r = 0; r < in->nrows; r++) {
        g->cg.rows[r] = -1;
        wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keycols);
        uint64_t h = wstate_key_hash(g->tmp.buf, g->tmp.len);     /* carried to the state */
        uint32_t i = (uint32_t)h & mask;
        for (;;) {
            int gi = g->cg.table[i];
            if (gi < 0) {
                gi = g->cg.ngroups++;
                Group *n = &g->groups[gi];
                n->hash = h;
                n->first_row = n->last_row = r;
                n->koff = (uint32_t)g->cg.kbytes.len;
                n->klen = (uint32_t)g->tmp.len;
                wsb_appendn(&g->cg.kbytes, g->tmp.buf, g->tmp.len);
                g->cg.table[i] = gi;
                break;
            }
            Group *o = &g->groups[gi];
            if (o->hash == h && o->klen == g->tmp.len && !memcmp(g->cg.kbytes.buf + o->koff, g->tmp.buf, g->tmp.len)) {
                g->cg.rows[o->last_row] = r;
                o->last_row = r;
                break;
            }
            i = (i + 1) & mask;
        }
    }
}

static void flush_out(GlobalAgg *g)
{
    if (g->out->nrows) {
        wop_emit(&g->base, g->out);
        wchunk_reset(g->out);
    }
}

static void emit_row(GlobalAgg *g, WRowKind kind, const WChunk *in, int r, const WDatum *vals, const uint8_t *vn)
{
    WChunk *o = g->out;
    if (o->nrows >= o->cap) flush_out(g);
    int i = wchunk_add_row(o, kind);
    for (int k = 0; k < g->nkeys; k++) {
        o->cols[k].data[i] = in->cols[k].data[r];
        o->cols[k].nulls[i] = in->cols[k].nulls[r];
    }
    for (int a = 0; a < g->naggs; a++) {
        o->cols[g->nkeys + a].data[i] = vals[a];
        o->cols[g->nkeys + a].nulls[i] = vn[a];
    }
}

static void ga_process(WOperator *op, int input, const WChunk *in)
{
    GlobalAgg *g = (GlobalAgg *)op;
    (void)input;
    if (!in->nrows) return;
    warena_reset(&g->scratch);
    g->ac.now = wexec_now(op->ctx);
    prepare(g, in->nrows);
    group_rows(g, in);
    const WAccLayout *L = g->L;
    /* each lookup's table slot and entry are prefetched PF_SLOT and PF_ENTRY groups ahead */
    enum { PF_ENTRY = 4, PF_SLOT = 8 };
    const int ng = g->cg.ngroups;
    if (wstate_loads_values(g->acc_state)) {     /* RocksDB: the chunk's accumulators in one batch */
        WBytes *keys = wa_alloc(&g->scratch, sizeof(WBytes) * (size_t)(ng ? ng : 1));
        uint64_t *hashes = wa_alloc(&g->scratch, sizeof(uint64_t) * (size_t)(ng ? ng : 1));
        for (int gi = 0; gi < ng; gi++) {
            keys[gi] = (WBytes){g->cg.kbytes.buf + g->groups[gi].koff, g->groups[gi].klen};
            hashes[gi] = g->groups[gi].hash;
        }
        wstate_load_values(g->acc_state, keys, hashes, ng);
    }
    for (int gi = 0; gi < ng && gi < PF_SLOT; gi++) wstate_prefetch_slot(g->acc_state, g->groups[gi].hash);
    for (int gi = 0; gi < ng; gi++) {
        Group *gr = &g->groups[gi];
        if (gi + PF_SLOT < ng) wstate_prefetch_slot(g->acc_state, g->groups[gi + PF_SLOT].hash);
        if (gi + PF_ENTRY < ng) wstate_prefetch_entry(g->acc_state, g->groups[gi + PF_ENTRY].hash);
        wstate_set_key_hashed(g->backend, g->cg.kbytes.buf + gr->koff, gr->klen, gr->hash);
        WValueRef ref;                  /* one lookup for the read and the write below */
        WStateLookup how = wvalue_ref(g->acc_state, &ref);
        WBytes v = ref.cur;
        bool first = how != WSL_FOUND;
        if (how == WSL_EXPIRED) {
            for (int r = gr->first_row; r >= 0; r = g->cg.rows[r]) g->ttl_expired++;
            if (L->has_views) wacc_cleanup(L);
        }
        if (first) wacc_create(L, g->acc, g->accn);
        else wacc_decode(&g->ac, v.p, v.len, g->acc, g->accn);
        wacc_get_value(&g->ac, g->acc, g->accn, g->prev, g->prevn);
        /* strings of the previous result must survive the merge (scratch is not reset here) */
        for (int r = gr->first_row; r >= 0; r = g->cg.rows[r])
            wacc_merge_partial(&g->ac, &g->P, g->acc, g->accn, in, r, g->nkeys);
        wacc_get_value(&g->ac, g->acc, g->accn, g->cur, g->curn);
        bool zero = g->counted && g->acc[0].i == 0;
        if (!zero) {
            wacc_encode(&g->ac, g->acc, g->accn, &g->tmp);
            wvalue_ref_put(&ref, g->tmp.buf, g->tmp.len);
            if (first) {
                emit_row(g, WRK_INSERT, in, gr->first_row, g->cur, g->curn);
            } else if (g->ttl_ms > 0 || !wacc_values_equal(L, g->prev, g->prevn, g->cur, g->curn)) {
                if (g->gen_ub) emit_row(g, WRK_UPDATE_BEFORE, in, gr->first_row, g->prev, g->prevn);
                emit_row(g, WRK_UPDATE_AFTER, in, gr->first_row, g->cur, g->curn);
            }
        } else {
            if (!first) emit_row(g, WRK_DELETE, in, gr->first_row, g->prev, g->prevn);
            wvalue_ref_clear(&ref);
            if (L->has_views) wacc_cleanup(L);
        }
    }
    flush_out(g);
}

static void ga_metrics(WOperator *op, WOpMetrics *m)
{
    GlobalAgg *g = (GlobalAgg *)op;
    wop_metrics_agg_state(m, g->backend, g->state_name);
    wop_metrics_value(m, "ttlExpiredRecords", g->ttl_expired);
}

static void ga_destroy(WOperator *op)
{
    GlobalAgg *g = (GlobalAgg *)op;
    wacc_ctx_free(&g->ac);
    wacc_layout_free(g->L);
    wstate_backend_free(g->backend);
    warena_free(&g->scratch);
    warena_free(&g->parena);
    wchunk_free(g->out);
    wsb_free(&g->tmp);
    wcg_free(&g->cg);
    free(g->keycols);
    free(g->prev);
    free(g->cur);
    free(g->acc);
    free(g->prevn);
    free(g->curn);
    free(g->accn);
    free(g->state_name);
    free(g);
}

static const WOpOps GA_OPS = {.process = ga_process, .destroy = ga_destroy, .metrics = ga_metrics};

WOperator *wop_global_agg_new(WExecCtx *ctx, const WGlobalAggSpec *spec)
{
    if (!wagg_check_partial_calls(ctx->err, "GlobalGroupAggregate", spec->aggs, spec->naggs, spec->agg_ncols,
                                  false, spec->input_retracts))
        return NULL;
    GlobalAgg *g = wcalloc(1, sizeof *g);
    warena_init(&g->parena, 0);
    WSchema ain = {spec->agg_ncols, NULL, spec->agg_types};
    wagg_partial_layout(&g->parena, spec->aggs, spec->naggs, &ain, spec->input_retracts, false, &g->P);
    if (spec->in_ncols != spec->nkeys + g->P.ncols || spec->out.ncols != spec->nkeys + spec->naggs) {
        werr_set(ctx->err, WEXC_TABLE, "GlobalGroupAggregate: input has %d columns, expected %d",
                 spec->in_ncols, spec->nkeys + g->P.ncols);
        warena_free(&g->parena);
        free(g);
        return NULL;
    }
    wop_init(&g->base, &GA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "GlobalGroupAggregate";
    g->nkeys = spec->nkeys;
    g->naggs = spec->naggs;
    g->keycols = wmalloc(sizeof(int) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    for (int k = 0; k < spec->nkeys; k++) g->keycols[k] = k;
    g->gen_ub = spec->generate_update_before;
    g->counted = g->P.count1 >= 0;
    g->ttl_ms = spec->ttl_ms > 0 ? spec->ttl_ms : 0;
    g->state_name = wstrdup(spec->state_name ? spec->state_name : "globalGroupAggregateState");
    warena_init(&g->scratch, 0);
    wcg_init(&g->cg, sizeof(Group));
    wsb_init(&g->tmp);
    g->backend = wexec_new_backend(ctx, "GlobalGroupAggregate");
    g->acc_state = wstate_register(g->backend, g->state_name, WSTATE_VALUE, g->ttl_ms);
    g->out = wchunk_new(spec->out.ncols, spec->out.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    int na = spec->naggs ? spec->naggs : 1;
    g->prev = wcalloc((size_t)na, sizeof(WDatum));
    g->cur = wcalloc((size_t)na, sizeof(WDatum));
    g->prevn = wcalloc((size_t)na, 1);
    g->curn = wcalloc((size_t)na, 1);
    g->L = wacc_layout_new(spec->aggs, spec->naggs, spec->agg_types, spec->input_retracts, g->backend,
                           g->state_name, g->ttl_ms, ctx->err);
    if (!g->L) {
        wop_free(&g->base);
        return NULL;
    }
    g->acc = wcalloc((size_t)g->L->nfields, sizeof(WDatum));
    g->accn = wcalloc((size_t)g->L->nfields, 1);
    wacc_ctx_init(&g->ac, g->L, &g->scratch);
    g->ac.cast = ctx->cast;
    return &g->base;
}
