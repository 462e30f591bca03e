/*
 * changelog_normalize.c — the ChangelogNormalize operator: turns an upsert stream keyed by the
 * primary key into a full changelog, as Flink's ProcTimeDeduplicateKeepLastRowFunction does for a
 * changelog input (DeduplicateFunctionHelper.processLastRowOnChangelog[WithFilter]):
 *   +I/+U of a new key        -> +I (row kind normalised; stored);
 *   +I/+U of a present key    -> -U(stored) (if generate_update_before) and +U(new); a row identical
 *                                to the stored one (ignoring its kind) emits nothing unless state
 *                                TTL is enabled;
 *   -U/-D of a present key    -> -D(stored row, which carries the full content) and the key cleared;
 *   -U/-D of an absent key    -> dropped.
 * With a filter (Flink pushes a Calc condition into ChangelogNormalize), only the incoming row is
 * tested: a new key whose row fails is ignored (not stored); a present key whose new row fails emits
 * -D(stored) and is cleared; an identical row is still dropped before the filter is consulted.
 * State: value state `changelogNormalizeState` with the last binary row per key.
 * May call exec/operator, expr/, state/, types/, common/.
 */
#include "stateful.h"
#include "op_rows.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct NormOp {
    WOperator base;
    int ncols;
    const WType **types;
    int nkeys;
    int *keys;
    bool gen_ub, ttl_on;
    WExpr *filter;
    WStateBackend *be;
    WState *st;
    WChunk *out;
    WArena *scratch;            /* filter evaluation */
    uint8_t *sel;
    int selcap;
    WStrBuf kbuf, rbuf;
    WDatum *vals;
    uint8_t *nulls;
    const WType **ktypes;
    int64_t ttl_expired, dropped;
    bool broken;
} NormOp;

static int out_add(NormOp *n, WRowKind k) { return wop_out_row(&n->base, n->out, k); }

static void emit_bin_row(NormOp *n, WRowKind k, WBytes row)
{
    int o = out_add(n, k);
    wrow_decode_chunk(row.p, row.len, n->ncols, n->types, n->out, o, 0, n->out->arena, true);
}

static void norm_process(WOperator *op, int input, const WChunk *in)
{
    NormOp *n = (NormOp *)op;
    (void)input;
    if (n->broken) return;
    wchunk_reset(n->out);
    if (n->filter) {
        if (in->nrows > n->selcap) {
            n->selcap = in->nrows;
            n->sel = wrealloc(n->sel, (size_t)n->selcap);
        }
        memset(n->sel, 1, (size_t)in->nrows);
        warena_reset(n->scratch);
        WEvalCtx ec = {.arena = n->scratch, .cast = op->ctx->cast, .now_ms = op->ctx->start_ms, .clock = op->ctx->clock, .clock_ctx = op->ctx->clock_ctx,
                       .err = op->ctx->err};
        if (!wexpr_filter(&ec, n->filter, in, n->sel)) return;
    }
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        wop_encode_cols(&n->kbuf, in, r, n->nkeys, n->keys, n->ktypes, n->vals, n->nulls);
        wstate_set_key(n->be, n->kbuf.buf, n->kbuf.len);
        WBytes pre;
        WStateLookup how = wvalue_get(n->st, &pre);
        if (how == WSL_EXPIRED) n->ttl_expired++;
        bool have = how == WSL_FOUND;
        if (k == WRK_INSERT || k == WRK_UPDATE_AFTER) {
            bool pass = !n->filter || n->sel[r];
            wop_encode_cols(&n->rbuf, in, r, n->ncols, NULL, n->types, n->vals, n->nulls);
            if (!have) {
                if (!pass) continue;
                wop_out_copy_row(&n->base, n->out, WRK_INSERT, in, r, n->ncols);
            } else {
                if (!n->ttl_on && pre.len == n->rbuf.len && memcmp(pre.p, n->rbuf.buf, pre.len) == 0)
                    continue;
                if (!pass) {
                    emit_bin_row(n, WRK_DELETE, pre);
                    wvalue_clear(n->st);
                    continue;
                }
                if (n->gen_ub) emit_bin_row(n, WRK_UPDATE_BEFORE, pre);
                wop_out_copy_row(&n->base, n->out, WRK_UPDATE_AFTER, in, r, n->ncols);
            }
            wvalue_put(n->st, n->rbuf.buf, n->rbuf.len);
        } else if (have) {
            emit_bin_row(n, WRK_DELETE, pre);
            wvalue_clear(n->st);
        } else {
            n->dropped++;
        }
    }
    if (n->out->nrows) wop_emit(op, n->out);
    wchunk_reset(n->out);
}

static void norm_metrics(WOperator *op, WOpMetrics *m)
{
    NormOp *n = (NormOp *)op;
    wop_metrics_states(m, n->be);
    wop_metrics_value(m, "ttlExpiredRecords", n->ttl_expired);
}

static void norm_destroy(WOperator *op)
{
    NormOp *n = (NormOp *)op;
    wstate_backend_free(n->be);
    wchunk_free(n->out);
    warena_delete(n->scratch);
    free(n->sel);
    wsb_free(&n->kbuf);
    wsb_free(&n->rbuf);
    free(n->vals);
    free(n->nulls);
    free(n->ktypes);
    free(n->keys);
    free(n->types);
    free(n);
}

static const WOpOps NORM_OPS = {.process = norm_process, .destroy = norm_destroy,
                                .metrics = norm_metrics};

WOperator *wop_changelog_normalize_new(WExecCtx *ctx, const WChangelogNormalizeSpec *spec)
{
    NormOp *n = wcalloc(1, sizeof *n);
    n->ncols = spec->in_ncols;
    size_t nc = (size_t)(n->ncols ? n->ncols : 1);
    n->types = wmalloc(sizeof *n->types * nc);
    memcpy(n->types, spec->in_types, sizeof *n->types * (size_t)n->ncols);
    wop_init(&n->base, &NORM_OPS, ctx, 1, spec->out.ncols ? spec->out.ncols : n->ncols,
             spec->out.types ? spec->out.types : n->types, spec->out.names);
    n->nkeys = spec->nkeys;
    n->keys = wmalloc(sizeof *n->keys * (size_t)(n->nkeys ? n->nkeys : 1));
    n->ktypes = wmalloc(sizeof *n->ktypes * (size_t)(n->nkeys ? n->nkeys : 1));
    if (!wop_cols_in_range(spec->keys, spec->nkeys, n->ncols)) {
        werr_set(ctx->err, WEXC_TABLE, "ChangelogNormalize: key column index out of range");
        n->broken = true;
        n->nkeys = 0;
    }
    for (int k = 0; k < n->nkeys; k++) {
        n->keys[k] = spec->keys[k];
        n->ktypes[k] = n->types[spec->keys[k]];
    }
    n->gen_ub = spec->generate_update_before;
    n->ttl_on = spec->ttl_ms > 0;
    n->filter = spec->filter;
    n->be = wexec_new_backend(ctx, "ChangelogNormalize");
    n->st = wstate_register(n->be, "changelogNormalizeState", WSTATE_VALUE, spec->ttl_ms);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    n->out = wchunk_new(n->ncols, n->types, cap);
    n->scratch = warena_new(0);
    wsb_init(&n->kbuf);
    wsb_init(&n->rbuf);
    n->vals = wcalloc(nc, sizeof *n->vals);
    n->nulls = wcalloc(nc, 1);
    return &n->base;
}
