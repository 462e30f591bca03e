/*
 * temporal_sort.c — the TemporalSort operator (ORDER BY a time attribute ASC, ... without a
 * limit), as Flink's RowTimeSortOperator / ProcTimeSortOperator:
 *   event time       rows are held until the watermark reaches their time; then every row with
 *                    time <= watermark leaves, ordered by time and the secondary keys (ties in
 *                    arrival order); the last emitted time is remembered and a row not after it is
 *                    late and dropped (numLateRecordsDropped);
 *   processing time  only the time key: rows pass through unchanged (Flink forwards the input);
 *                    with secondary keys the rows of one input chunk (rows arriving together)
 *                    leave ordered by them.
 * See sort.h. May call exec/operator, exec/sort_buffer, types/, common/.
 */
#include "sort.h"
#include "../common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TemporalSortOp {
    WOperator base;
    WSortBuf buf;
    bool rowtime;
    int time_col;
    bool has_last;
    int64_t last_ms;            /* lastTriggeringTs */
    int64_t *idx;
    int64_t idxcap;
} TemporalSortOp;

static int64_t row_ms(const TemporalSortOp *o, const WChunk *c, int r)
{
    return c->cols[o->time_col].data[r].ts.ms;
}

static void ensure_idx(TemporalSortOp *o, int64_t n)
{
    if (n <= o->idxcap) return;
    o->idxcap = n * 2 + 64;
    o->idx = wrealloc(o->idx, sizeof *o->idx * (size_t)o->idxcap);
}

/* Emit rows idx[0..n) in that order as inserts. */
static void emit_rows(TemporalSortOp *o, const int64_t *idx, int64_t n)
{
    WOperator *op = &o->base;
    int cap = op->ctx->chunk_rows > 0 ? op->ctx->chunk_rows : WCHUNK_CAP;
    WChunk *out = wchunk_new(op->ncols, op->types, cap);
    for (int64_t i = 0; i < n; i++) {
        if (!wsortbuf_emit_to(&o->buf, idx[i], out, WRK_INSERT)) {
            wop_emit(op, out);
            wchunk_reset(out);
            wsortbuf_emit_to(&o->buf, idx[i], out, WRK_INSERT);
        }
    }
    if (out->nrows) wop_emit(op, out);
    wchunk_free(out);
}

static void ts_process(WOperator *op, int input, const WChunk *in)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    (void)input;
    if (!o->rowtime) {
        if (o->buf.nkeys <= 1) { wop_emit(op, in); return; }
        for (int r = 0; r < in->nrows; r++) wsortbuf_add(&o->buf, in, r);
        ensure_idx(o, o->buf.n);
        for (int64_t i = 0; i < o->buf.n; i++) o->idx[i] = i;
        wsortbuf_sort(&o->buf, o->idx, o->buf.n, 1);
        emit_rows(o, o->idx, o->buf.n);
        for (int64_t i = 0; i < o->buf.n; i++) wsortbuf_kill(&o->buf, i);
        wsortbuf_compact(&o->buf);
        return;
    }
    for (int r = 0; r < in->nrows; r++) {
        if (in->cols[o->time_col].nulls[r] || (o->has_last && row_ms(o, in, r) <= o->last_ms)) {
            op->late_dropped++;
            continue;
        }
        wsortbuf_add(&o->buf, in, r);
    }
}

static void ts_watermark(WOperator *op, int64_t wm)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    if (o->rowtime && o->buf.live) {
        WSortBuf *b = &o->buf;
        ensure_idx(o, b->n);
        int64_t n = 0;
        for (int64_t i = 0; i < b->n; i++) {
            if (!wsortbuf_is_live(b, i)) continue;
            bool isnull;
            WDatum t = wsortbuf_get(b, i, o->time_col, &isnull);
            if (t.ts.ms <= wm) o->idx[n++] = i;
        }
        if (n) {
            wsortbuf_sort(b, o->idx, n, 0);
            emit_rows(o, o->idx, n);
            bool isnull;
            int64_t last = wsortbuf_get(b, o->idx[n - 1], o->time_col, &isnull).ts.ms;
            if (!o->has_last || last > o->last_ms) o->last_ms = last;
            o->has_last = true;
            for (int64_t i = 0; i < n; i++) wsortbuf_kill(b, o->idx[i]);
            if (b->live * 2 < b->n) wsortbuf_compact(b);
        }
    }
    wop_emit_watermark(op, wm);
}

static void ts_destroy(WOperator *op)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    wsortbuf_free(&o->buf);
    free(o->idx);
    free(o);
}

static void ts_metrics(WOperator *op, char *buf, size_t bufsz)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    snprintf(buf, bufsz, "bufferedRows: %lld\n", (long long)o->buf.live);
}

static const WOpOps TEMPORAL_SORT_OPS = {.process = ts_process, .watermark = ts_watermark,
                                         .destroy = ts_destroy, .metrics = ts_metrics};

WOperator *wop_temporal_sort_new(WExecCtx *ctx, const WTemporalSortSpec *spec)
{
    TemporalSortOp *o = wcalloc(1, sizeof *o);
    wop_init(&o->base, &TEMPORAL_SORT_OPS, ctx, 1, spec->ncols, spec->types, spec->names);
    bool bad = spec->nkeys < 1;
    for (int k = 0; !bad && k < spec->nkeys; k++)
        if (spec->keys[k].col < 0 || spec->keys[k].col >= spec->ncols) bad = true;
    if (bad) werr_set(ctx->err, WEXC_TABLE, "TemporalSort: sort key column index out of range");
    o->rowtime = spec->rowtime;
    o->time_col = bad ? 0 : spec->keys[0].col;
    wsortbuf_init(&o->buf, spec->ncols, o->base.types, bad ? 0 : spec->nkeys, spec->keys, false);
    return &o->base;
}
