/*
 * window_rank.c — WindowRank and WindowDeduplicate over windowed input (the input already carries
 * window_start / window_end columns from a window TVF), with Flink's semantics
 * (SyncStateWindowRankProcessor + TopNRecordsCombiner, RowTimeSyncStateWindowDeduplicateProcessor
 * + RowTimeDeduplicateRecordsCombiner):
 *   - a row whose window already fired (watermark >= window_end - 1) is late: dropped and counted
 *     in late_dropped;
 *   - -U/-D input fails the job ("Window rank does not support input RowKind: -D");
 *   - rank: per (keys, window) rows are ordered by the sort key, ties in arrival order, and when the
 *     watermark passes window_end - 1 the rows numbered rank_start..rank_end are emitted as +I
 *     (with the row number when output_rank_number). Flink numbers rows one by one whatever the
 *     rank function (currentRank += 1 per record), and so does this operator;
 *   - dedup: keeps the first (smaller time wins, ties keep the earlier) or the last row (a later
 *     or equal time replaces) of each (keys, window) and emits it as +I when the window fires.
 * Only the rows that can still be in the top rank_end are kept (Flink keeps more, but emits the same
 * rows): state `window_rank` (map: window_end -> list of rows, sorted) or `window_deduplicate`
 * (map: window_end -> row), keyed by the partition keys; timers at window_end - 1 with the window
 * end as namespace. A row that sorts after or equal to the last row of a full list is skipped
 * before it is encoded (no copy of the list: most rows of a large window); a row that enters is
 * encoded once and the list rewritten once. Processing-time windows fire when the job clock passes window_end - 1
 * (checked whenever the operator is called).
 * May call exec/operator, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "windowed.h"
#include "../state/timers.h"
#include "../types/row.h"
#include "../types/compare.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct WinRankOp {
    WOperator base;
    int ncols;                  /* input columns */
    const WType **types;
    const WType **otypes;       /* default output types: input + BIGINT rank */
    int out_ncols;
    int nkeys;
    int *keys;
    int *all;                   /* 0..ncols-1 */
    int start_col, end_col;
    int nsort;
    WSortKey *sort;
    int64_t rank_start, rank_end;
    bool rank_number, dedup, keep_last, proctime;
    int time_col;               /* dedup: the order-by time column (sort[0]) */
    WStateBackend *be;
    WState *st;
    WTimerService *timers;
    WChunk *out;
    WStrBuf kbuf, rbuf, vbuf;
    int64_t progress;           /* Flink's currentProgress */
    WArena *scratch;
} WinRankOp;

/* ---- small helpers ---- */

static int out_add(WinRankOp *w) { return wop_out_row(&w->base, w->out, WRK_INSERT); }

static void flush(WinRankOp *w) { wop_out_flush(&w->base, w->out); }

static void emit_bin(WinRankOp *w, const void *row, size_t len, int64_t rank)
{
    int o = out_add(w);
    wrow_decode_chunk(row, len, w->ncols, w->types, w->out, o, 0, w->out->arena, true);
    if (w->rank_number && w->out_ncols > w->ncols) {
        w->out->cols[w->ncols].nulls[o] = 0;
        w->out->cols[w->ncols].data[o].i = rank;
    }
}

/* Compare stored row a with chunk row r of `in` (b) by the sort keys. */
static int cmp_bin_chunk(WinRankOp *w, const void *a, size_t alen, const WChunk *in, int r)
{
    for (int k = 0; k < w->nsort; k++) {
        int c = w->sort[k].col;
        const WType *t = w->types[c];
        WDatum av;
        bool an = !(wtype_is_composite(t) ? wrow_get_arena(a, alen, w->ncols, t, c, &av, w->scratch)
                                          : wrow_get(a, alen, w->ncols, t, c, &av));
        bool bn = in->cols[c].nulls[r] != 0;
        int cmp;
        if (an || bn) {
            if (an && bn) continue;
            cmp = an ? -1 : 1;                  /* NULL first ... */
            if (!w->sort[k].nulls_first) cmp = -cmp;
            return cmp;                          /* nulls order is independent of ASC/DESC */
        }
        cmp = wdatum_compare(t, av, in->cols[c].data[r]);
        if (cmp != 0) return w->sort[k].desc ? -cmp : cmp;
    }
    return 0;
}

/* ---- processing ---- */

static void add_rank_row(WinRankOp *w, const WChunk *in, int r, const uint8_t *uk)
{
    WBytes cur;
    bool have = wmap_get(w->st, uk, 8, &cur) == WSL_FOUND;
    if (have) {
        /* a full buffer whose last row sorts before or equal to the new one keeps its rows: the
           row is neither encoded nor the buffer copied (most rows of a large window) */
        const uint8_t *q = cur.p, *qend = cur.p + cur.len, *last = NULL;
        int64_t stored = 0;
        while (q + 4 <= qend) {
            last = q;
            stored++;
            q += 4 + (size_t)wload_u32(q);
        }
        assert(q == qend);
        if (last && stored >= w->rank_end) {
            warena_reset(w->scratch);
            if (cmp_bin_chunk(w, last + 4, wload_u32(last), in, r) <= 0) return;
        }
    }
    wrow_encode_chunk(&w->rbuf, in, r, w->ncols, w->all);
    /* Find the insert position: after every stored row that sorts before or equal (ties keep
       arrival order). */
    wsb_clear(&w->vbuf);
    int64_t n = 0;
    bool inserted = false;
    const uint8_t *p = have ? cur.p : NULL, *end = have ? p + cur.len : NULL;
    warena_reset(w->scratch);
    while (p && p < end) {
        uint32_t len = wload_u32(p);
        const uint8_t *row = p + 4;
        if (!inserted && cmp_bin_chunk(w, row, len, in, r) > 0) {
            if (n >= w->rank_end) break;
            uint32_t l = (uint32_t)w->rbuf.len;
            wsb_appendn(&w->vbuf, (const char *)&l, 4);
            wsb_appendn(&w->vbuf, w->rbuf.buf, w->rbuf.len);
            inserted = true;
            n++;
        }
        if (n >= w->rank_end) break;
        wsb_appendn(&w->vbuf, (const char *)p, 4 + (size_t)len);
        n++;
        p += 4 + len;
    }
    if (!inserted) {
        if (n >= w->rank_end) return;           /* cannot be in the top rank_end */
        uint32_t l = (uint32_t)w->rbuf.len;
        wsb_appendn(&w->vbuf, (const char *)&l, 4);
        wsb_appendn(&w->vbuf, w->rbuf.buf, w->rbuf.len);
    }
    wmap_put(w->st, uk, 8, w->vbuf.buf, w->vbuf.len);
}

static void add_dedup_row(WinRankOp *w, const WChunk *in, int r, const uint8_t *uk)
{
    WBytes pre;
    if (wmap_get(w->st, uk, 8, &pre) == WSL_FOUND) {
        const WType *t = w->types[w->time_col];
        WDatum v;
        bool nn = wrow_get(pre.p, pre.len, w->ncols, t, w->time_col, &v);
        int64_t pre_t = wop_datum_time(t, v, !nn);
        int64_t cur_t = wop_datum_time(t, in->cols[w->time_col].data[r], in->cols[w->time_col].nulls[r]);
        bool replace = w->keep_last ? pre_t <= cur_t : cur_t < pre_t;
        if (!replace) return;
    }
    wrow_encode_chunk(&w->rbuf, in, r, w->ncols, w->all);
    wmap_put(w->st, uk, 8, w->rbuf.buf, w->rbuf.len);
}

static void fire(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    WinRankOp *w = ctx;
    (void)ts;
    int64_t t0 = wop_firing_begin(&w->base);
    wstate_set_key(w->be, key, klen);
    uint8_t uk[8];
    wkey_put_time(uk, ns);
    WBytes v;
    if (wmap_get(w->st, uk, 8, &v) != WSL_FOUND) return;
    int64_t rows = 1;
    if (w->dedup) {
        emit_bin(w, v.p, v.len, 1);
    } else {
        const uint8_t *p = v.p, *end = p + v.len;
        int64_t rank = 1;
        while (p < end && rank <= w->rank_end) {
            uint32_t len = wload_u32(p);
            if (rank >= w->rank_start) emit_bin(w, p + 4, len, rank);
            rank++;
            p += 4 + len;
        }
        rows = rank - 1;
    }
    wmap_remove(w->st, uk, 8);
    wop_firing_end(&w->base, t0, rows, w->out, w->out->nrows - 1);
}

static void advance(WinRankOp *w, int64_t progress)
{
    if (progress <= w->progress) return;
    w->progress = progress;
    wtimers_advance(w->timers, progress, fire, w);
    flush(w);
}

static void wr_process(WOperator *op, int input, const WChunk *in)
{
    WinRankOp *w = (WinRankOp *)op;
    (void)input;
    if (w->proctime) advance(w, wexec_now(op->ctx));
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        if (wrowkind_is_retract(k)) {
            flush(w);
            werr_set(op->ctx->err, WEXC_UNSUPPORTED,
                     "%s does not support input RowKind: %s",
                     w->dedup ? "Window deduplicate" : "Window rank", wrowkind_short(k));
            return;
        }
        int64_t wend = wop_datum_time(w->types[w->end_col], in->cols[w->end_col].data[r],
                                  in->cols[w->end_col].nulls[r]);
        /* TimeWindowUtil.isWindowFired */
        if (wend != INT64_MAX && w->progress >= wend - 1) {
            wop_late_row(op, 0, in, r, winsight_lateness(w->progress, wend - 1));
            continue;
        }
        wrow_encode_chunk(&w->kbuf, in, r, w->nkeys, w->keys);
        wstate_set_key(w->be, w->kbuf.buf, w->kbuf.len);
        uint8_t uk[8];
        wkey_put_time(uk, wend);
        if (w->dedup) add_dedup_row(w, in, r, uk);
        else add_rank_row(w, in, r, uk);
        wtimers_register(w->timers, wend - 1, w->kbuf.buf, w->kbuf.len, wend);
    }
    flush(w);
}

static void wr_watermark(WOperator *op, int64_t wm)
{
    WinRankOp *w = (WinRankOp *)op;
    if (w->proctime) advance(w, wexec_now(op->ctx));
    else advance(w, wm);
    wop_emit_watermark(op, wm);
}

static void wr_metrics(WOperator *op, WOpMetrics *m)
{
    WinRankOp *w = (WinRankOp *)op;
    wop_metrics_states(m, w->be);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
    wop_metrics_value(m, "timers", (int64_t)wtimers_count(w->timers));
}

static void wr_destroy(WOperator *op)
{
    WinRankOp *w = (WinRankOp *)op;
    wstate_backend_free(w->be);
    wtimers_free(w->timers);
    wchunk_free(w->out);
    wsb_free(&w->kbuf);
    wsb_free(&w->rbuf);
    wsb_free(&w->vbuf);
    warena_delete(w->scratch);
    free(w->keys);
    free(w->all);
    free(w->sort);
    free(w->types);
    free(w->otypes);
    free(w);
}

/* processing-time windows end on the job clock, also between rows */
static void wr_tick(WOperator *op)
{
    WinRankOp *w = (WinRankOp *)op;
    if (w->proctime) advance(w, wexec_now(op->ctx));
}

static const WOpOps WR_OPS = {.process = wr_process, .watermark = wr_watermark, .tick = wr_tick,
                              .destroy = wr_destroy, .metrics = wr_metrics};

WOperator *wop_window_rank_new(WExecCtx *ctx, const WWindowRankSpec *spec)
{
    WinRankOp *w = wcalloc(1, sizeof *w);
    w->ncols = spec->in_ncols;
    size_t nc = (size_t)(w->ncols > 0 ? w->ncols : 1);
    w->types = wmalloc(sizeof *w->types * nc);
    memcpy(w->types, spec->in_types, sizeof *w->types * (size_t)w->ncols);
    w->rank_number = spec->output_rank_number;
    w->out_ncols = w->ncols + (w->rank_number ? 1 : 0);
    if (spec->out.ncols) w->out_ncols = spec->out.ncols;
    const WType **otypes = spec->out.types;
    w->otypes = wmalloc(sizeof *w->otypes * (size_t)(w->out_ncols > 0 ? w->out_ncols : 1));
    for (int i = 0; i < w->out_ncols; i++) w->otypes[i] = i < w->ncols ? w->types[i] : &WTYPE_BIGINT;
    wop_init(&w->base, &WR_OPS, ctx, 1, w->out_ncols, otypes ? otypes : w->otypes, spec->out.names);
    w->nkeys = spec->nkeys;
    w->keys = wmalloc(sizeof *w->keys * (size_t)(w->nkeys ? w->nkeys : 1));
    if (w->nkeys) memcpy(w->keys, spec->keys, sizeof *w->keys * (size_t)w->nkeys);
    w->all = wmalloc(sizeof *w->all * nc);
    for (int i = 0; i < w->ncols; i++) w->all[i] = i;
    w->start_col = spec->start_col;
    w->end_col = spec->end_col;
    w->nsort = spec->nsort;
    w->sort = wmalloc(sizeof *w->sort * (size_t)(w->nsort ? w->nsort : 1));
    if (w->nsort) memcpy(w->sort, spec->sort, sizeof *w->sort * (size_t)w->nsort);
    w->rank_start = spec->rank_start > 0 ? spec->rank_start : 1;
    w->rank_end = spec->rank_end > 0 ? spec->rank_end : INT64_MAX;
    w->dedup = spec->dedup;
    w->keep_last = spec->keep_last;
    w->proctime = spec->proctime;
    w->time_col = w->nsort > 0 ? w->sort[0].col : -1;
    w->progress = INT64_MIN;
    w->be = wexec_new_backend(ctx, w->base.name ? w->base.name : "WindowRank");
    w->st = wstate_register(w->be, w->dedup ? "window_deduplicate" : "window_rank", WSTATE_MAP, 0);
    w->timers = wexec_new_timers(ctx, "WindowRank");
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    w->out = wchunk_new(w->out_ncols, otypes ? otypes : w->otypes, cap);
    wsb_init(&w->kbuf);
    wsb_init(&w->rbuf);
    wsb_init(&w->vbuf);
    w->scratch = warena_new(0);
    if (w->end_col < 0 || w->end_col >= w->ncols)
        werr_set(ctx->err, WEXC_TABLE, "WindowRank: window_end column index %d out of range", w->end_col);
    else if (w->dedup && (w->time_col < 0 || w->time_col >= w->ncols))
        werr_set(ctx->err, WEXC_TABLE, "WindowDeduplicate: needs an order-by time column");
    return &w->base;
}
