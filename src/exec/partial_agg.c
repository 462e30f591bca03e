/*
 * partial_agg.c — the two-phase aggregates' spec checks and local combiner, see partial_agg.h.
 * May call exec/operator.h, exec/op_rows.h, exec/accumulators.h, exec/chunk_groups.h,
 * plan/agg_rules.h, state/, types/, common/.
 */
#include "partial_agg.h"
#include "op_rows.h"
#include "../plan/agg_rules.h"

#include <stdlib.h>

bool wagg_check_key_cols(WError *err, const char *op_name, const char *what, const int *keys, int nkeys,
                         int ncols)
{
    for (int k = 0; k < nkeys; k++)
        if (keys[k] < 0 || keys[k] >= ncols)
            return werr_set(err, WEXC_TABLE, "%s: %s column %d out of range", op_name, what, keys[k]);
    return true;
}

bool wagg_check_partial_calls(WError *err, const char *op_name, const WAggCall *aggs, int naggs, int ncols,
                              bool check_filter, bool retracts)
{
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        for (int k = 0; k < c->nargs; k++)
            if (c->args[k] < 0 || c->args[k] >= ncols)
                return werr_set(err, WEXC_TABLE, "%s: argument column %d out of range", op_name, c->args[k]);
        if (check_filter && c->filter_col >= ncols)
            return werr_set(err, WEXC_TABLE, "%s: FILTER column %d out of range", op_name, c->filter_col);
        if (!wagg_mergeable(c, retracts))
            return werr_set(err, WEXC_TABLE, "%s: %s cannot be merged from partial accumulators", op_name,
                            c->name ? c->name : "?");
    }
    return true;
}

bool wlc_open(WLocalCombiner *c, WExecCtx *ctx, const char *op_name, const char *state_name, int nkeys,
              const int *keys, const WAggCall *aggs, int naggs, const WType **in_types, bool retracts,
              const WOpSchema *out)
{
    c->nkeys = nkeys;
    c->keys = wmalloc(sizeof(int) * (size_t)(nkeys ? nkeys : 1));
    for (int k = 0; k < nkeys; k++) c->keys[k] = keys[k];
    warena_init(&c->scratch, 0);
    wcg_init(&c->cg, sizeof(WLocalGroup));
    wsb_init(&c->tmp);
    c->backend = wexec_new_backend(ctx, op_name);
    c->out = wchunk_new(out->ncols, out->types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    c->L = wacc_layout_new(aggs, naggs, in_types, retracts, c->backend, state_name, 0, ctx->err);
    if (!c->L) return false;
    wacc_ctx_init(&c->ac, c->L, &c->scratch);
    c->ac.cast = ctx->cast;
    return true;
}

void wlc_free(WLocalCombiner *c)
{
    if (c->L) {
        wacc_ctx_free(&c->ac);
        wacc_layout_free(c->L);
    }
    if (c->backend) wstate_backend_free(c->backend);
    warena_free(&c->scratch);
    warena_free(&c->parena);
    if (c->out) wchunk_free(c->out);
    wsb_free(&c->tmp);
    wcg_free(&c->cg);
    free(c->keys);
}

void wlc_begin(WLocalCombiner *c, WExecCtx *ctx, int nrows)
{
    warena_reset(&c->scratch);
    c->ac.now = wexec_now(ctx);
    c->groups = wcg_prepare(&c->cg, nrows);
}

static void set_key(WLocalCombiner *c, const WLocalGroup *gr)
{
    wstate_set_key(c->backend, c->cg.kbytes.buf + gr->key.koff, gr->key.klen);
}

bool wlc_accumulate(WLocalCombiner *c, const WChunk *in, const char *insert_only_op, WError *err)
{
    const WAccLayout *L = c->L;
    int nf = L->nfields;
    int cur = -1;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind kind = (WRowKind)in->kinds[r];
        bool retract = wrowkind_is_retract(kind);
        if (retract && insert_only_op)
            return werr_set(err, WEXC_TABLE, "%s received a %s row but its input was planned insert-only",
                            insert_only_op, wrowkind_short(kind));
        int gi = c->cg.rows[r];
        WLocalGroup *gr = &c->groups[gi];
        if (!gr->acc) {
            gr->acc = wa_alloc(&c->scratch, sizeof(WDatum) * (size_t)nf);
            gr->nulls = wa_alloc(&c->scratch, (size_t)nf);
            wacc_create(L, gr->acc, gr->nulls);
        }
        if (L->has_views && cur != gi) {
            set_key(c, gr);
            cur = gi;
        }
        if (retract) wacc_retract(&c->ac, gr->acc, gr->nulls, in, r);
        else wacc_accumulate(&c->ac, gr->acc, gr->nulls, in, r);
    }
    c->rows_combined += in->nrows - c->cg.ngroups;
    return true;
}

void wlc_emit(WLocalCombiner *c, WOperator *op, const WChunk *in, int slice_col)
{
    const WAccLayout *L = c->L;
    WChunk *o = c->out;
    for (int gi = 0; gi < c->cg.ngroups; gi++) {
        WLocalGroup *gr = &c->groups[gi];
        int row = wop_out_row(op, o, WRK_INSERT);
        for (int k = 0; k < c->nkeys; k++) {
            const WVector *v = &in->cols[c->keys[k]];
            o->cols[k].nulls[row] = v->nulls[gr->first_row];
            o->cols[k].data[row] = v->nulls[gr->first_row]
                                       ? v->data[gr->first_row]
                                       : wdatum_copy(o->arena, o->types[k], v->data[gr->first_row]);
        }
        if (L->has_views) set_key(c, gr);
        wacc_write_partial(&c->ac, &c->P, gr->acc, gr->nulls, o, row, c->nkeys);
        if (L->has_views) wacc_cleanup(L);
        if (slice_col >= 0) {
            o->cols[slice_col].nulls[row] = 0;
            o->cols[slice_col].data[row].i = gr->slice_end;
        }
    }
    wop_out_flush(op, o);
}
