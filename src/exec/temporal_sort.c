/*
 * temporal_sort.c — the TemporalSort operator (ORDER BY a time attribute ASC, ... without a
 * limit), as Flink's RowTimeSortOperator / ProcTimeSortOperator:
 *   event time       rows are kept in keyed state until the watermark reaches their time: map
 *                    state dataState (time -> the rows of that time, in arrival order) with one
 *                    event-time timer per time, and value state lastTriggeringTsState (the last
 *                    time emitted), under the empty key (Flink's EmptyRowDataKeySelector: the
 *                    operator runs as a single instance). A timer emits its time's rows ordered
 *                    by the secondary keys (ties in arrival order) and remembers the time; a row
 *                    not after it is late and dropped (numLateRecordsDropped). Both states and
 *                    the timers are registered for checkpoints (wexec_new_backend /
 *                    wexec_new_timers), so a savepoint keeps the rows that wait;
 *   processing time  only the time key: rows pass through unchanged (Flink forwards the input);
 *                    with secondary keys the rows of one input chunk (rows arriving together)
 *                    leave ordered by them. Nothing is kept across chunks.
 * The rows of one chunk are grouped by time first, so each time's list is read and written once
 * per chunk. See sort.h. May call exec/operator, exec/sort_buffer, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "sort.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TemporalSortOp {
    WOperator base;
    WSortBuf buf;               /* processing time with secondary keys: one chunk's rows */
    bool rowtime;
    int time_col;
    int nkeys;
    WSortKeySpec *keys;
    /* event time */
    WStateBackend *be;
    WState *data;               /* dataState */
    WState *last;               /* lastTriggeringTsState */
    WTimerService *timers;
    WStrBuf key;                /* the empty key */
    WStrBuf list, enc;
    WArena arena;
    WChunk *dec;                /* decoded rows of one time */
    WChunk *out;
    int *ord;
    int ordcap;
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

static void ensure_ord(TemporalSortOp *o, int n)
{
    if (n <= o->ordcap) return;
    o->ordcap = n * 2 + 64;
    o->ord = wrealloc(o->ord, sizeof *o->ord * (size_t)o->ordcap);
}

/* ---- processing time ---- */

static void emit_buf_rows(TemporalSortOp *o, const int64_t *idx, int64_t n)
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

static void pt_process(TemporalSortOp *o, const WChunk *in)
{
    if (o->nkeys <= 1) { wop_emit(&o->base, in); return; }
    for (int r = 0; r < in->nrows; r++) wsortbuf_add(&o->buf, in, r);
    ensure_idx(o, o->buf.n);
    for (int64_t i = 0; i < o->buf.n; i++) o->idx[i] = i;
    wsortbuf_sort(&o->buf, o->idx, o->buf.n, 1);
    emit_buf_rows(o, o->idx, o->buf.n);
    for (int64_t i = 0; i < o->buf.n; i++) wsortbuf_kill(&o->buf, i);
    wsortbuf_compact(&o->buf);
}

/* ---- event time ---- */

static bool get_last(TemporalSortOp *o, int64_t *out)
{
    WBytes v;
    if (wvalue_get(o->last, &v) != WSL_FOUND || v.len != 8) return false;
    memcpy(out, v.p, 8);
    return true;
}

/* Chunk rows by time, then arrival (a stable merge sort of row numbers). */
static int cmp_row_time(const TemporalSortOp *o, const WChunk *in, int a, int b)
{
    int64_t x = row_ms(o, in, a), y = row_ms(o, in, b);
    if (x != y) return x < y ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void sort_by_time(TemporalSortOp *o, const WChunk *in, int *ix, int n)
{
    int *tmp = wmalloc(sizeof *tmp * (size_t)(n ? n : 1));
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi) tmp[k++] = cmp_row_time(o, in, ix[b], ix[a]) < 0 ? ix[b++] : ix[a++];
            while (a < mid) tmp[k++] = ix[a++];
            while (b < hi) tmp[k++] = ix[b++];
        }
        memcpy(ix, tmp, sizeof *ix * (size_t)n);
    }
    free(tmp);
}

static void rt_process(TemporalSortOp *o, const WChunk *in)
{
    WOperator *op = &o->base;
    wstate_set_key(o->be, o->key.buf, o->key.len);
    int64_t last = 0;
    bool has_last = get_last(o, &last);
    ensure_ord(o, in->nrows);
    int n = 0;
    for (int r = 0; r < in->nrows; r++) {
        if (in->cols[o->time_col].nulls[r] || (has_last && row_ms(o, in, r) <= last)) {
            wop_late_row(op, 0, in, r, in->cols[o->time_col].nulls[r] ? 0 : winsight_lateness(last, row_ms(o, in, r)));
            continue;
        }
        o->ord[n++] = r;
    }
    sort_by_time(o, in, o->ord, n);
    for (int i = 0; i < n;) {
        int64_t t = row_ms(o, in, o->ord[i]);
        uint8_t uk[8];
        wkey_put_be64(uk, t);
        WBytes old;
        wsb_clear(&o->list);
        bool had = wmap_get(o->data, uk, 8, &old) == WSL_FOUND;
        if (had) wsb_appendn(&o->list, old.p, old.len);
        for (; i < n && row_ms(o, in, o->ord[i]) == t; i++) wrowlist_append(&o->list, in, o->ord[i], &o->enc);
        wmap_put(o->data, uk, 8, o->list.buf, o->list.len);
        if (!had) wtimers_register(o->timers, t, o->key.buf, o->key.len, 0);
    }
}

static void flush(TemporalSortOp *o) { wop_out_flush(&o->base, o->out); }

/* onEventTime: the rows of time ts leave, ordered by the secondary keys. */
static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    TemporalSortOp *o = ctx;
    (void)ns;
    if (o->base.ctx->err->set) return;
    wstate_set_key(o->be, key, klen);
    uint8_t uk[8];
    wkey_put_be64(uk, ts);
    WBytes v;
    if (wmap_get(o->data, uk, 8, &v) != WSL_FOUND) return;
    warena_reset(&o->arena);
    if (o->dec) wchunk_reset(o->dec);
    int n = wrowlist_decode(v.p, v.len, &o->dec, o->base.ncols, o->base.types, &o->arena);
    if (n < 0) {
        werr_set(o->base.ctx->err, WEXC_RUNTIME, "TemporalSort: damaged dataState entry for time %lld", (long long)ts);
        return;
    }
    ensure_ord(o, n);
    for (int i = 0; i < n; i++) o->ord[i] = i;
    wsort_chunk_rows(o->dec, o->keys, o->nkeys, 1, o->ord, n);
    for (int i = 0; i < n; i++) {
        if (o->out->nrows >= o->out->cap) flush(o);
        wchunk_append_row(o->out, o->dec, o->ord[i]);
        o->out->kinds[o->out->nrows - 1] = WRK_INSERT;
    }
    wmap_remove(o->data, uk, 8);
    wvalue_put(o->last, &ts, sizeof ts);
}

static void ts_process(WOperator *op, int input, const WChunk *in)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    (void)input;
    if (op->ctx->err->set) return;
    if (!o->rowtime) pt_process(o, in);
    else rt_process(o, in);
}

static void ts_watermark(WOperator *op, int64_t wm)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    if (o->rowtime) {
        wtimers_advance(o->timers, wm, on_timer, o);
        flush(o);
    }
    wop_emit_watermark(op, wm);
}

static void ts_destroy(WOperator *op)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    wsortbuf_free(&o->buf);
    if (o->be) wstate_backend_free(o->be);
    if (o->timers) wtimers_free(o->timers);
    wsb_free(&o->key);
    wsb_free(&o->list);
    wsb_free(&o->enc);
    warena_free(&o->arena);
    if (o->dec) wchunk_free(o->dec);
    if (o->out) wchunk_free(o->out);
    free(o->keys);
    free(o->ord);
    free(o->idx);
    free(o);
}

static void ts_metrics(WOperator *op, WOpMetrics *m)
{
    TemporalSortOp *o = (TemporalSortOp *)op;
    if (o->be) wop_metrics_states(m, o->be);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
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
    o->nkeys = bad ? 0 : spec->nkeys;
    o->keys = wmalloc(sizeof *o->keys * (size_t)(o->nkeys ? o->nkeys : 1));
    if (o->nkeys) memcpy(o->keys, spec->keys, sizeof *o->keys * (size_t)o->nkeys);
    wsortbuf_init(&o->buf, spec->ncols, o->base.types, o->nkeys, o->keys, false);
    wsb_init(&o->key);
    wsb_init(&o->list);
    wsb_init(&o->enc);
    warena_init(&o->arena, 0);
    if (o->rowtime && !bad) {
        o->be = wexec_new_backend(ctx, "TemporalSort");
        o->data = wstate_register(o->be, "dataState", WSTATE_MAP, 0);
        o->last = wstate_register(o->be, "lastTriggeringTsState", WSTATE_VALUE, 0);
        o->timers = wexec_new_timers(ctx, "TemporalSort");
        /* the empty key: an empty binary row */
        wrow_encode(&o->key, 0, NULL, NULL, NULL, WRK_INSERT);
        o->out = wchunk_new(spec->ncols, o->base.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    }
    return &o->base;
}
