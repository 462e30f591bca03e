/*
 * lookup_join.c — LookupJoin (Flink's LookupJoinRunner / LookupJoinWithCalcRunner): for each
 * input row, the dim rows of its key (from the cache, else fetched and then cached), each joined
 * row kept when the residual condition holds; a LEFT join emits the row padded with NULLs when
 * none is kept. A NULL key value matches nothing (not fetched). Rows are processed in segments:
 * the candidates (input row ++ dim row) of consecutive input rows are collected in one chunk, the
 * residual is evaluated over it at once, then the results are emitted in input order. Keeps no
 * state (Flink's lookup join has none; the cache is not checkpointed). May call exec/operator,
 * exec/lookup_cache, expr/, types/, common/.
 */
#include "lookup_join.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct LookupJoinOp {
    WOperator base;
    bool left_outer;
    int L, D;                       /* input and dim column counts */
    const WType **dim_types;
    const WType **jtypes;           /* input ++ dim */
    int nkeys;
    int *keys;
    const WType **key_types;
    WExpr *residual;
    WLookupFetcher fetcher;
    WLookupCache *cache;            /* NULL = lookup.cache NONE */
    bool cache_missing_key;
    int64_t loads, load_failures;   /* fetches from the table */
    WChunk *cand;                   /* candidates of the current segment */
    WChunk *decoded;                /* the rows of a cache hit */
    int *cand_begin, *cand_end;     /* per input row of the chunk: its candidates */
    int rows_cap;
    uint8_t *sel;
    WChunk *out;
    WStrBuf kbuf;
    WStrBuf *rbufs;                 /* encoded rows of a fetch, for the cache */
    int nrbufs;
    WArena *eval_arena;
} LookupJoinOp;

static void flush_out(LookupJoinOp *j)
{
    if (j->out->nrows) wop_emit(&j->base, j->out);
    wchunk_reset(j->out);
}

/* Append input row r with dim row (c, i) (NULL: padded) to dst. The input row's values are
   referred to, not copied: `in` outlives both chunks they go into (the candidates are consumed and
   the output emitted before lj_process returns); the dim row's are copied (the chunk of a cache
   hit is decoded again for the next key). */
static int append_joined(LookupJoinOp *j, WChunk *dst, const WChunk *in, int r, const WChunk *c, int i,
                         WRowKind kind)
{
    int row = wchunk_add_row(dst, kind);
    if (row < 0) return -1;
    for (int k = 0; k < j->L; k++) {
        const WVector *v = &in->cols[k];
        dst->cols[k].nulls[row] = v->nulls[r];
        dst->cols[k].data[row] = v->data[r];
    }
    for (int k = 0; k < j->D; k++) {
        WVector *o = &dst->cols[j->L + k];
        if (!c || c->cols[k].nulls[i]) { o->nulls[row] = 1; continue; }
        o->nulls[row] = 0;
        o->data[row] = wdatum_copy(dst->arena, j->dim_types[k], c->cols[k].data[i]);
    }
    return row;
}

/* Emit the results of input rows [b, e) from the candidates. */
static bool finish_segment(LookupJoinOp *j, const WChunk *in, int b, int e)
{
    WChunk *c = j->cand;
    if (c->nrows) {
        memset(j->sel, 1, (size_t)c->nrows);
        if (j->residual) {
            warena_reset(j->eval_arena);
            WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast, .now_ms = j->base.ctx->start_ms, .clock = j->base.ctx->clock, .clock_ctx = j->base.ctx->clock_ctx,
                           .err = j->base.ctx->err};
            if (!wexpr_filter(&ec, j->residual, c, j->sel)) return false;
        }
    }
    for (int r = b; r < e; r++) {
        bool matched = false;
        WRowKind kind = (WRowKind)in->kinds[r];
        for (int i = j->cand_begin[r]; i < j->cand_end[r]; i++) {
            if (!j->sel[i]) continue;
            matched = true;
            if (j->out->nrows == j->out->cap) flush_out(j);
            /* the input's values by reference again (append_joined), the dim row's copied: the
               candidates are reset below, before the output is emitted */
            WChunk *o = j->out;
            int row = o->nrows++;
            o->kinds[row] = (uint8_t)kind;
            for (int k = 0; k < j->L + j->D; k++) {
                uint8_t isnull = c->cols[k].nulls[i];
                o->cols[k].nulls[row] = isnull;
                o->cols[k].data[row] = isnull || k < j->L ? c->cols[k].data[i]
                                                          : wdatum_copy(o->arena, j->jtypes[k], c->cols[k].data[i]);
            }
        }
        if (!matched && j->left_outer) {
            if (j->out->nrows == j->out->cap) flush_out(j);
            append_joined(j, j->out, in, r, NULL, 0, kind);
        }
    }
    wchunk_reset(c);
    return true;
}

static bool key_null(const LookupJoinOp *j, const WChunk *in, int r)
{
    for (int k = 0; k < j->nkeys; k++)
        if (in->cols[j->keys[k]].nulls[r]) return true;
    return false;
}

/* The dim rows of input row r's key as a chunk of dim columns (j->decoded for a cache hit, else
   the fetcher's). */
static const WChunk *rows_for(LookupJoinOp *j, const WChunk *in, int r)
{
    WDatum key[64];
    for (int k = 0; k < j->nkeys; k++) key[k] = in->cols[j->keys[k]].data[r];
    int64_t now = 0;
    if (j->cache) {
        wrow_encode_chunk(&j->kbuf, in, r, j->nkeys, j->keys);
        now = wexec_now(j->base.ctx);
        WLookupRows hit;
        if (wlookup_cache_get(j->cache, j->kbuf.buf, j->kbuf.len, now, &hit)) {
            if (hit.n > j->decoded->cap) {
                wchunk_free(j->decoded);
                j->decoded = wchunk_new(j->D, j->dim_types, hit.n);
            }
            WChunk *decoded = j->decoded;
            wchunk_reset(decoded);
            for (int i = 0; i < hit.n; i++) {
                int row = wchunk_add_row(decoded, WRK_INSERT);
                for (int k = 0; k < j->D; k++) {
                    WDatum d;
                    bool nn = wtype_is_composite(j->dim_types[k])
                                  ? wrow_get_arena(hit.rows[i], hit.len[i], j->D, j->dim_types[k], k, &d, decoded->arena)
                                  : wrow_get(hit.rows[i], hit.len[i], j->D, j->dim_types[k], k, &d);
                    decoded->cols[k].nulls[row] = !nn;
                    if (nn) decoded->cols[k].data[row] = wdatum_copy(decoded->arena, j->dim_types[k], d);
                }
            }
            return decoded;
        }
    }
    const WChunk *got = j->fetcher.fetch(j->fetcher.ctx, key, j->base.ctx->err);
    if (!got) {
        j->load_failures++;
        return NULL;
    }
    j->loads++;
    if (j->cache && (got->nrows > 0 || j->cache_missing_key)) {
        if (got->nrows > j->nrbufs) {
            j->rbufs = wrealloc(j->rbufs, sizeof *j->rbufs * (size_t)got->nrows);
            for (int i = j->nrbufs; i < got->nrows; i++) wsb_init(&j->rbufs[i]);
            j->nrbufs = got->nrows;
        }
        int n = got->nrows;
        const uint8_t **rows = wmalloc(sizeof *rows * (size_t)(n ? n : 1));
        size_t *lens = wmalloc(sizeof *lens * (size_t)(n ? n : 1));
        int *cols = wmalloc(sizeof *cols * (size_t)(j->D ? j->D : 1));
        for (int k = 0; k < j->D; k++) cols[k] = k;
        for (int i = 0; i < n; i++) {
            wrow_encode_chunk(&j->rbufs[i], got, i, j->D, cols);
            rows[i] = (const uint8_t *)j->rbufs[i].buf;
            lens[i] = j->rbufs[i].len;
        }
        wlookup_cache_put(j->cache, j->kbuf.buf, j->kbuf.len, n, rows, lens, now);
        free(rows);
        free(lens);
        free(cols);
    }
    return got;
}

static void lj_process(WOperator *op, int input, const WChunk *in)
{
    (void)input;
    LookupJoinOp *j = (LookupJoinOp *)op;
    if (in->nrows > j->rows_cap) {
        j->rows_cap = in->nrows;
        j->cand_begin = wrealloc(j->cand_begin, sizeof *j->cand_begin * (size_t)in->nrows);
        j->cand_end = wrealloc(j->cand_end, sizeof *j->cand_end * (size_t)in->nrows);
    }
    int seg = 0;
    for (int r = 0; r < in->nrows; r++) {
        const WChunk *dr = NULL;
        if (!key_null(j, in, r)) {
            dr = rows_for(j, in, r);
            if (!dr) break;
        }
        int n = dr ? dr->nrows : 0;
        if (j->cand->nrows + n > j->cand->cap && r > seg) {
            if (!finish_segment(j, in, seg, r)) break;
            seg = r;
        }
        if (n > j->cand->cap) {
            /* one key with more rows than a chunk holds: a bigger candidate chunk */
            wchunk_free(j->cand);
            j->cand = wchunk_new(j->L + j->D, j->jtypes, n);
            free(j->sel);
            j->sel = wmalloc((size_t)n);
        }
        j->cand_begin[r] = j->cand->nrows;
        for (int i = 0; i < n; i++) append_joined(j, j->cand, in, r, dr, i, WRK_INSERT);
        j->cand_end[r] = j->cand->nrows;
    }
    if (!j->base.ctx->err->set) finish_segment(j, in, seg, in->nrows);
    flush_out(j);
}

static void lj_metrics(WOperator *op, WOpMetrics *m)
{
    LookupJoinOp *j = (LookupJoinOp *)op;
    if (!j->cache) {
        wop_metrics_value(m, "loadCount", j->loads);
        wop_metrics_value(m, "numLoadFailures", j->load_failures);
        return;
    }
    WLookupCacheStats st = wlookup_cache_stats(j->cache);
    wop_metrics_value(m, "hitCount", st.hits);
    wop_metrics_value(m, "missCount", st.misses);
    wop_metrics_value(m, "loadCount", j->loads);
    wop_metrics_value(m, "numLoadFailures", j->load_failures);
    wop_metrics_value(m, "numCachedRecords", st.entries);
}

static void lj_destroy(WOperator *op)
{
    LookupJoinOp *j = (LookupJoinOp *)op;
    if (j->fetcher.close) j->fetcher.close(j->fetcher.ctx);
    wlookup_cache_free(j->cache);
    wchunk_free(j->cand);
    wchunk_free(j->decoded);
    wchunk_free(j->out);
    for (int i = 0; i < j->nrbufs; i++) wsb_free(&j->rbufs[i]);
    free(j->rbufs);
    wsb_free(&j->kbuf);
    free(j->cand_begin);
    free(j->cand_end);
    free(j->sel);
    free(j->keys);
    free(j->dim_types);
    free(j->jtypes);
    warena_delete(j->eval_arena);
    free(j);
}

static const WOpOps LJ_OPS = {.process = lj_process, .destroy = lj_destroy, .metrics = lj_metrics};

WOperator *wop_lookup_join_new(WExecCtx *ctx, const WLookupJoinSpec *spec)
{
    LookupJoinOp *j = wcalloc(1, sizeof *j);
    j->left_outer = spec->left_outer;
    j->L = spec->left_ncols;
    j->D = spec->dim_ncols;
    j->nkeys = spec->nkeys;
    j->keys = wmalloc(sizeof *j->keys * (size_t)(spec->nkeys ? spec->nkeys : 1));
    memcpy(j->keys, spec->left_keys, sizeof *j->keys * (size_t)spec->nkeys);
    j->dim_types = wmalloc(sizeof *j->dim_types * (size_t)(j->D ? j->D : 1));
    memcpy(j->dim_types, spec->dim_types, sizeof *j->dim_types * (size_t)j->D);
    int nj = j->L + j->D;
    j->jtypes = wmalloc(sizeof *j->jtypes * (size_t)(nj ? nj : 1));
    for (int i = 0; i < j->L; i++) j->jtypes[i] = spec->left_types[i];
    for (int i = 0; i < j->D; i++) j->jtypes[j->L + i] = spec->dim_types[i];
    int out_n = spec->out.ncols ? spec->out.ncols : nj;
    const WType **out_t = spec->out.types ? spec->out.types : j->jtypes;
    wop_init(&j->base, &LJ_OPS, ctx, 1, out_n, out_t, spec->out.names);
    j->residual = spec->residual;
    j->fetcher = spec->fetcher;
    if (spec->cache) j->cache = wlookup_cache_new(&spec->cache_spec);
    j->cache_missing_key = spec->cache_missing_key;
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    j->cand = wchunk_new(nj, j->jtypes, cap);
    j->sel = wmalloc((size_t)cap);
    j->decoded = wchunk_new(j->D, j->dim_types, 16);
    j->out = wchunk_new(out_n, out_t, cap);
    wsb_init(&j->kbuf);
    j->eval_arena = warena_new(0);
    if (out_n != nj || spec->nkeys < 1 || spec->nkeys > 64)
        werr_set(ctx->err, WEXC_TABLE, "LookupJoin: %d output columns for %d input and %d dim columns, %d keys",
                 out_n, j->L, j->D, spec->nkeys);
    return &j->base;
}
