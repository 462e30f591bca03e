/*
 * over_agg.c — OVER aggregation with a frame ending at CURRENT ROW, partitioned by keys and
 * ordered by a time attribute, with Flink's process functions:
 *   event time, UNBOUNDED PRECEDING   AbstractRowTimeUnboundedPrecedingOver (ROWS and RANGE):
 *       rows with time <= watermark are late (dropped, counted); others wait in state until the
 *       watermark passes them (one timer per key at watermark + 1), then are processed in time
 *       order: ROWS emits after each row, RANGE accumulates all rows of one time, then emits them
 *       with the same value;
 *   event time, RANGE n PRECEDING     RowTimeRangeBoundedPrecedingFunction: a row is late when its
 *       time <= the key's last triggering time (0 initially, so times <= 0 are dropped too); a
 *       timer per distinct time; on it, rows older than time - n are retracted and removed, the
 *       time's rows accumulated and emitted with one value; a cleanup timer at
 *       time + 1.5 n + 1 clears the key's state when no newer row came;
 *   event time, ROWS n PRECEDING      RowTimeRowsBoundedPrecedingFunction: same lateness rule;
 *       each row retracts the oldest row once the frame holds n + 1 rows;
 *   processing time                   ProcTimeUnboundedPrecedingFunction (emit at once),
 *       ProcTimeRowsBoundedPrecedingFunction (emit at once, retract the oldest beyond n + 1),
 *       ProcTimeRangeBoundedPrecedingFunction (rows of one millisecond are emitted together when
 *       the clock passes it; processing-time timers fire whenever the operator is called, and at
 *       end of input).
 * Output: input columns then one column per call. Aggregates come from accumulators.h
 * (retractable variants for bounded frames). With UNBOUNDED PRECEDING frames the calls may also
 * be Flink's stream-only over functions, kept next to the accumulators:
 *   LAG(v [, n [, default]])   LagAggFunction: a buffer of the last n + 1 values; the value is its
 *                               first when full, else the default of the last accumulated row;
 *   ROW_NUMBER / RANK / DENSE_RANK   RowNumber/Rank/DenseRankAggFunction: a sequence and the last
 *                               order key (rows of one time compare equal; processing time keys
 *                               are NULL in Flink, so they never do).
 * In RANGE frames all rows of one time are accumulated before any is emitted, so they share
 * one value (LAG of tied rows sees the last of them, as in Flink).
 * State (keyed by the partition keys): inputState (map time -> list of rows), accState (value:
 * accumulator row, data views under "accState$..."; with the functions above [u32 accumulator
 * length][accumulator row][their state]), lastTriggeringTsState, cleanupTsState,
 * processedCountState, smallestTsState (values).
 * May call exec/operator, exec/accumulators, plan/over_window.h, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "../common/sort.h"
#include "windowed.h"
#include "accumulators.h"
#include "../plan/over_window.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))

/* The state of one non-aggregate call (LAG or a ranking function) for the current key. */
typedef struct XState {
    int64_t seq, rank, last;
    bool has_last;
    int nbuf, cap;                  /* LAG: encoded one-column rows, oldest first (work arena) */
    const uint8_t **buf;
    uint32_t *len;
    const uint8_t *def;             /* LAG: default of the last accumulated row, NULL = none */
    uint32_t deflen;
} XState;

typedef struct OverOp {
    WOperator base;
    int ncols;
    const WType **types;
    const WType **otypes;
    int out_ncols;
    int nkeys;
    int *keys;
    int *all;
    int time_col;
    bool proctime, rows, unbounded;
    int64_t offset;             /* Flink's precedingOffset: n + 1 for ROWS, n ms for RANGE */
    int naggs;
    int ncalls;                 /* output calls (aggregates and the functions below) */
    WOverCall *calls;
    int *call_slot;             /* per call: aggregate index, or -1 - index into xs */
    int nx;                     /* LAG / ranking calls */
    const WOverCall **xcalls;
    XState *xs;
    WDatum *xvals;
    uint8_t *xvaln;
    WStrBuf xbuf;
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WDatum *acc, *vals;
    uint8_t *accn, *valn;
    WStateBackend *be;
    WState *input, *acc_st, *last_ts, *cleanup_ts, *count_st, *smallest_ts;
    WTimerService *timers;
    WChunk *dec;                /* decoded stored rows */
    WChunk *out;
    WStrBuf kbuf, rbuf, vbuf, abuf;
    WArena *work;
    int64_t last_proc;
    int64_t rows_read;          /* stored rows decoded for the current key (insight's slow keys) */
} OverOp;

/* ---- small state helpers (int64 value states) ---- */

static bool get_long(WState *s, int64_t *out)
{
    WBytes v;
    if (wvalue_get(s, &v) != WSL_FOUND || v.len != 8) return false;
    memcpy(out, v.p, 8);
    return true;
}

static void put_long(WState *s, int64_t v) { wvalue_put(s, &v, sizeof v); }

/* ---- output ---- */

static int out_add(OverOp *o) { return wop_out_row(&o->base, o->out, WRK_INSERT); }

static void flush(OverOp *o) { wop_out_flush(&o->base, o->out); }

/* Emit row r of chunk c with the current aggregate values (o->vals). */
static void emit_row(OverOp *o, const WChunk *c, int r)
{
    int k = out_add(o);
    WArena *a = o->out->arena;
    for (int i = 0; i < o->ncols; i++) {
        bool nul = c->cols[i].nulls[r];
        o->out->cols[i].nulls[k] = nul;
        o->out->cols[i].data[k] = nul ? (WDatum){0} : wdatum_copy(a, o->types[i], c->cols[i].data[r]);
    }
    for (int i = 0; i < o->ncalls && o->ncols + i < o->out_ncols; i++) {
        int col = o->ncols + i, s = o->call_slot[i];
        bool nul = s >= 0 ? o->valn[s] : o->xvaln[-1 - s];
        WDatum v = s >= 0 ? o->vals[s] : o->xvals[-1 - s];
        o->out->cols[col].nulls[k] = nul;
        o->out->cols[col].data[k] = nul ? (WDatum){0} : wdatum_copy(a, o->otypes[col], v);
    }
}

/* ---- LAG and the ranking functions ---- */

static void x_reset(OverOp *o)
{
    for (int i = 0; i < o->nx; i++) {
        XState *x = &o->xs[i];
        x->seq = x->rank = x->last = 0;
        x->has_last = false;
        x->nbuf = 0;
        x->def = NULL;
        x->deflen = 0;
    }
}

static void x_push(XState *x, const uint8_t *p, uint32_t len)
{
    if (x->nbuf == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 4;
        x->buf = wrealloc(x->buf, sizeof *x->buf * (size_t)x->cap);
        x->len = wrealloc(x->len, sizeof *x->len * (size_t)x->cap);
    }
    x->buf[x->nbuf] = p;
    x->len[x->nbuf++] = len;
}

/* One column of chunk row r as an encoded one-column row in the work arena. */
static const uint8_t *x_blob(OverOp *o, const WChunk *c, int r, int col, uint32_t *len)
{
    wrow_encode_chunk(&o->rbuf, c, r, 1, &col);
    *len = (uint32_t)o->rbuf.len;
    return wa_memdup(o->work, o->rbuf.buf, o->rbuf.len);
}

static void x_accumulate(OverOp *o, const WChunk *c, int r)
{
    for (int i = 0; i < o->nx; i++) {
        const WOverCall *k = o->xcalls[i];
        XState *x = &o->xs[i];
        if (k->fn == WOF_LAG) {
            if (k->n < 0) {
                werr_set(o->base.ctx->err, WEXC_TABLE, "Offset(%lld) should be positive.", (long long)k->n);
                return;
            }
            uint32_t len;
            const uint8_t *p = x_blob(o, c, r, k->arg, &len);
            x_push(x, p, len);
            if ((int64_t)x->nbuf > k->n + 1) {
                int drop = x->nbuf - (int)(k->n + 1);
                memmove(x->buf, x->buf + drop, sizeof *x->buf * (size_t)(x->nbuf - drop));
                memmove(x->len, x->len + drop, sizeof *x->len * (size_t)(x->nbuf - drop));
                x->nbuf -= drop;
            }
            if (k->default_col >= 0) x->def = x_blob(o, c, r, k->default_col, &x->deflen);
            continue;
        }
        /* the order key: rows of one event time are peers; processing time never is */
        bool nul = o->proctime || c->cols[o->time_col].nulls[r];
        int64_t key = nul ? 0 : c->cols[o->time_col].data[r].ts.ms;
        bool peer = !nul && x->has_last && x->last == key;
        x->seq++;
        if (k->fn == WOF_ROW_NUMBER) x->rank = x->seq;
        else if (k->fn == WOF_RANK) { if (!peer) x->rank = x->seq; }
        else if (!peer) x->rank++;
        x->has_last = !nul;
        x->last = key;
    }
}

static void x_values(OverOp *o)
{
    for (int i = 0; i < o->nx; i++) {
        const WOverCall *k = o->xcalls[i];
        XState *x = &o->xs[i];
        o->xvaln[i] = 0;
        if (k->fn != WOF_LAG) {
            o->xvals[i].i = x->rank;
            continue;
        }
        const uint8_t *p = NULL;
        uint32_t len = 0;
        const WType *t = NULL;
        if (x->nbuf > 0 && (int64_t)x->nbuf == k->n + 1) {
            p = x->buf[0];
            len = x->len[0];
            t = o->types[k->arg];
        } else if (x->def) {
            p = x->def;
            len = x->deflen;
            t = o->types[k->default_col];
        }
        WDatum d;
        bool nn = p && (wtype_is_composite(t) ? wrow_get_arena(p, len, 1, t, 0, &d, o->work)
                                               : wrow_get(p, len, 1, t, 0, &d));
        o->xvaln[i] = !nn;
        o->xvals[i] = nn ? d : (WDatum){0};
    }
}

static void put_u32b(WStrBuf *b, uint32_t v) { wsb_appendn(b, (const char *)&v, 4); }

static void x_encode(OverOp *o, WStrBuf *b)
{
    for (int i = 0; i < o->nx; i++) {
        const XState *x = &o->xs[i];
        if (o->xcalls[i]->fn != WOF_LAG) {
            int64_t v[3] = {x->seq, x->rank, x->last};
            wsb_appendn(b, (const char *)v, sizeof v);
            wsb_putc(b, x->has_last ? 1 : 0);
            continue;
        }
        put_u32b(b, (uint32_t)x->nbuf);
        for (int k = 0; k < x->nbuf; k++) {
            put_u32b(b, x->len[k]);
            wsb_appendn(b, (const char *)x->buf[k], x->len[k]);
        }
        put_u32b(b, x->def ? x->deflen : UINT32_MAX);
        if (x->def) wsb_appendn(b, (const char *)x->def, x->deflen);
    }
}

/* Decode the calls' state from p (already in the work arena). */
static void x_decode(OverOp *o, const uint8_t *p, const uint8_t *end)
{
    x_reset(o);
    for (int i = 0; i < o->nx && p < end; i++) {
        XState *x = &o->xs[i];
        if (o->xcalls[i]->fn != WOF_LAG) {
            int64_t v[3];
            if (end - p < (ptrdiff_t)sizeof v + 1) return;
            memcpy(v, p, sizeof v);
            x->seq = v[0];
            x->rank = v[1];
            x->last = v[2];
            x->has_last = p[sizeof v] != 0;
            p += sizeof v + 1;
            continue;
        }
        if (end - p < 4) return;
        uint32_t n = wload_u32(p);
        p += 4;
        for (uint32_t k = 0; k < n; k++) {
            if (end - p < 4) return;
            uint32_t l = wload_u32(p);
            if ((size_t)(end - p - 4) < l) return;
            x_push(x, p + 4, l);
            p += 4 + l;
        }
        if (end - p < 4) return;
        uint32_t l = wload_u32(p);
        p += 4;
        if (l != UINT32_MAX && (size_t)(end - p) >= l) {
            x->def = p;
            x->deflen = l;
            p += l;
        }
    }
}

/* ---- accumulators of the current key ---- */

static void load_acc(OverOp *o)
{
    WBytes v;
    if (wvalue_get(o->acc_st, &v) != WSL_FOUND) {
        wacc_create(o->L, o->acc, o->accn);
        x_reset(o);
        return;
    }
    if (!o->nx) {
        wacc_decode(&o->ac, v.p, v.len, o->acc, o->accn);
        return;
    }
    const uint8_t *p = wa_memdup(o->work, v.p, v.len);
    uint32_t alen = v.len >= 4 ? wload_u32(p) : 0;
    if (alen > v.len - 4) alen = 0;
    if (alen) wacc_decode(&o->ac, p + 4, alen, o->acc, o->accn);
    else wacc_create(o->L, o->acc, o->accn);
    x_decode(o, p + 4 + alen, p + v.len);
}

static void save_acc(OverOp *o)
{
    wacc_encode(&o->ac, o->acc, o->accn, &o->abuf);
    if (!o->nx) {
        wvalue_put(o->acc_st, o->abuf.buf, o->abuf.len);
        return;
    }
    wsb_clear(&o->xbuf);
    put_u32b(&o->xbuf, (uint32_t)o->abuf.len);
    wsb_appendn(&o->xbuf, o->abuf.buf, o->abuf.len);
    x_encode(o, &o->xbuf);
    wvalue_put(o->acc_st, o->xbuf.buf, o->xbuf.len);
}

static void get_value(OverOp *o)
{
    wacc_get_value(&o->ac, o->acc, o->accn, o->vals, o->valn);
    if (o->nx) x_values(o);
}

/* Accumulate chunk row r into the aggregates and the other calls. */
static void acc_row(OverOp *o, const WChunk *c, int r)
{
    wacc_accumulate(&o->ac, o->acc, o->accn, c, r);
    if (o->nx) x_accumulate(o, c, r);
}

/* ---- stored row lists ---- */

/* Decode a list value [u32 len][row]... (copied into the work arena first) into o->dec. */
static int decode_list(OverOp *o, const void *val, size_t len)
{
    const uint8_t *p0 = wa_memdup(o->work, val, len);
    int n = 0;
    for (const uint8_t *p = p0, *end = p0 + len; p < end; p += 4 + wload_u32(p)) n++;
    o->rows_read += n;
    if (o->dec->cap < n) {
        wchunk_free(o->dec);
        o->dec = wchunk_new(o->ncols, o->types, n);
    }
    wchunk_reset(o->dec);
    for (const uint8_t *p = p0, *end = p0 + len; p < end; p += 4 + wload_u32(p)) {
        uint32_t l = wload_u32(p);
        int r = wchunk_add_row(o->dec, WRK_INSERT);
        wrow_decode_chunk(p + 4, l, o->ncols, o->types, o->dec, r, 0, o->work, false);
    }
    return n;
}

static void list_append(OverOp *o, const uint8_t *uk, const WChunk *in, int r)
{
    wrow_encode_chunk(&o->rbuf, in, r, o->ncols, o->all);
    WBytes old;
    wsb_clear(&o->vbuf);
    if (wmap_get(o->input, uk, 8, &old) == WSL_FOUND) wsb_appendn(&o->vbuf, old.p, old.len);
    uint32_t len = (uint32_t)o->rbuf.len;
    wsb_appendn(&o->vbuf, (const char *)&len, 4);
    wsb_appendn(&o->vbuf, o->rbuf.buf, o->rbuf.len);
    wmap_put(o->input, uk, 8, o->vbuf.buf, o->vbuf.len);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Times of the current key's inputState (into the work arena). */
static int list_times(OverOp *o, int64_t **out)
{
    size_t n = wmap_size(o->input);
    int64_t *ts = wa_alloc(o->work, sizeof *ts * (n ? n : 1));
    int k = 0;
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(o->input, &it);
    while (wmap_next(&it, &uk, &uv) && (size_t)k < n) ts[k++] = wkey_get_time(uk.p);
    *out = ts;
    return k;
}

static void cleanup_key(OverOp *o)
{
    wmap_clear(o->input);
    wvalue_clear(o->acc_st);
    wvalue_clear(o->last_ts);
    wvalue_clear(o->cleanup_ts);
    wvalue_clear(o->count_st);
    wvalue_clear(o->smallest_ts);
    if (o->L->has_views) wacc_cleanup(o->L);
}

/* ---- event time: UNBOUNDED PRECEDING ---- */

static void rt_unbounded_element(OverOp *o, const WChunk *in, int r, int64_t ts)
{
    int64_t wm = o->base.wm;
    if (ts > wm) {
        int64_t trigger = wm < 0 ? 0 : wm + 1;
        wtimers_register(o->timers, trigger, o->kbuf.buf, o->kbuf.len, 0);
        uint8_t uk[8];
        wkey_put_time(uk, ts);
        list_append(o, uk, in, r);
    } else {
        wop_late_row(&o->base, 0, in, r, winsight_lateness(wm, ts));
    }
}

static void rt_unbounded_timer(OverOp *o)
{
    int64_t *ts;
    int n = list_times(o, &ts);
    if (n == 0) return;
    int64_t wm = o->base.wm;
    int m = 0;
    bool early = false;
    for (int i = 0; i < n; i++) {
        if (ts[i] <= wm) ts[m++] = ts[i];
        else early = true;
    }
    wqsort(ts, (size_t)m, sizeof *ts, cmp_i64);
    load_acc(o);
    for (int i = 0; i < m; i++) {
        uint8_t uk[8];
        wkey_put_time(uk, ts[i]);
        WBytes v;
        if (wmap_get(o->input, uk, 8, &v) != WSL_FOUND) continue;
        int cnt = decode_list(o, v.p, v.len);
        if (o->rows) {
            for (int r = 0; r < cnt; r++) {
                acc_row(o, o->dec, r);
                get_value(o);
                emit_row(o, o->dec, r);
            }
        } else {
            for (int r = 0; r < cnt; r++) acc_row(o, o->dec, r);
            get_value(o);
            for (int r = 0; r < cnt; r++) emit_row(o, o->dec, r);
        }
        wmap_remove(o->input, uk, 8);
    }
    save_acc(o);
    if (early) wtimers_register(o->timers, WADD(wm, 1), o->kbuf.buf, o->kbuf.len, 0);
}

/* ---- event time: RANGE n PRECEDING ---- */

static void rt_bounded_element(OverOp *o, const WChunk *in, int r, int64_t ts)
{
    int64_t last = 0;
    get_long(o->last_ts, &last);
    if (ts <= last) {
        wop_late_row(&o->base, 0, in, r, winsight_lateness(last, ts));
        return;
    }
    uint8_t uk[8];
    wkey_put_time(uk, ts);
    WBytes v;
    bool had = wmap_get(o->input, uk, 8, &v) == WSL_FOUND;
    list_append(o, uk, in, r);
    if (!had) wtimers_register(o->timers, ts, o->kbuf.buf, o->kbuf.len, 0);
    if (!o->rows) {
        /* registerCleanupTimer */
        int64_t min_cleanup = WADD(WADD(ts, o->offset), 1);
        int64_t max_cleanup = WADD(WADD(ts, (int64_t)((double)o->offset * 1.5)), 1);
        int64_t cur;
        if (!get_long(o->cleanup_ts, &cur) || cur < min_cleanup) {
            wtimers_register(o->timers, max_cleanup, o->kbuf.buf, o->kbuf.len, 0);
            put_long(o->cleanup_ts, max_cleanup);
        }
    }
}

static void rt_range_timer(OverOp *o, int64_t timestamp)
{
    int64_t cleanup;
    if (get_long(o->cleanup_ts, &cleanup) && cleanup <= timestamp) {
        cleanup_key(o);
        return;
    }
    uint8_t uk[8];
    wkey_put_time(uk, timestamp);
    WBytes v;
    if (wmap_get(o->input, uk, 8, &v) == WSL_FOUND) {
        const void *cur_val = wa_memdup(o->work, v.p, v.len);
        size_t cur_len = v.len;
        load_acc(o);
        int64_t *ts;
        int n = list_times(o, &ts);
        int nret = 0;
        for (int i = 0; i < n; i++) {
            if (timestamp - ts[i] > o->offset) {
                uint8_t rk[8];
                wkey_put_time(rk, ts[i]);
                WBytes rv;
                if (wmap_get(o->input, rk, 8, &rv) == WSL_FOUND) {
                    int cnt = decode_list(o, rv.p, rv.len);
                    for (int r = 0; r < cnt; r++) wacc_retract(&o->ac, o->acc, o->accn, o->dec, r);
                }
                ts[nret++] = ts[i];
            }
        }
        int cnt = decode_list(o, cur_val, cur_len);
        for (int r = 0; r < cnt; r++) wacc_accumulate(&o->ac, o->acc, o->accn, o->dec, r);
        get_value(o);
        for (int r = 0; r < cnt; r++) emit_row(o, o->dec, r);
        for (int i = 0; i < nret; i++) {
            uint8_t rk[8];
            wkey_put_time(rk, ts[i]);
            wmap_remove(o->input, rk, 8);
        }
        save_acc(o);
    }
    put_long(o->last_ts, timestamp);
}

/* ---- event time: ROWS n PRECEDING ---- */

static void rt_rows_timer(OverOp *o, int64_t timestamp)
{
    uint8_t uk[8];
    wkey_put_time(uk, timestamp);
    WBytes v;
    if (wmap_get(o->input, uk, 8, &v) == WSL_FOUND) {
        const uint8_t *cur_val = wa_memdup(o->work, v.p, v.len);
        size_t cur_len = v.len;
        int64_t count = 0;
        get_long(o->count_st, &count);
        load_acc(o);
        /* the rows of this time, decoded once into their own chunk */
        int cnt = decode_list(o, cur_val, cur_len);
        WChunk *cur = wchunk_new(o->ncols, o->types, cnt > 0 ? cnt : 1);
        for (int r = 0; r < cnt; r++) {
            int k = wchunk_add_row(cur, WRK_INSERT);
            for (int c = 0; c < o->ncols; c++) {
                cur->cols[c].data[k] = o->dec->cols[c].data[r];
                cur->cols[c].nulls[k] = o->dec->cols[c].nulls[r];
            }
        }
        /* retraction cursor over the oldest time's list */
        bool have_retract = false;
        int64_t retract_ts = INT64_MAX;
        const uint8_t *rlist = NULL;
        size_t rlen = 0, rpos = 0;
        int retract_cnt = 0;
        for (int i = 0; i < cnt; i++) {
            if (count >= o->offset) {
                if (!have_retract) {
                    int64_t *ts;
                    int n = list_times(o, &ts);
                    retract_ts = INT64_MAX;
                    for (int t = 0; t < n; t++) if (ts[t] < retract_ts) retract_ts = ts[t];
                    uint8_t rk[8];
                    wkey_put_time(rk, retract_ts);
                    WBytes rv;
                    if (n > 0 && wmap_get(o->input, rk, 8, &rv) == WSL_FOUND) {
                        rlist = wa_memdup(o->work, rv.p, rv.len);
                        rlen = rv.len;
                        rpos = 0;
                        retract_cnt = 0;
                        have_retract = true;
                    }
                }
                if (have_retract) {
                    uint32_t l = wload_u32(rlist + rpos);
                    /* decode the retracted row into dec row 0 */
                    wchunk_reset(o->dec);
                    int rr = wchunk_add_row(o->dec, WRK_INSERT);
                    wrow_decode_chunk(rlist + rpos + 4, l, o->ncols, o->types, o->dec, rr, 0, o->work, false);
                    wacc_retract(&o->ac, o->acc, o->accn, o->dec, rr);
                    rpos += 4 + l;
                    retract_cnt++;
                    if (rpos >= rlen) {
                        uint8_t rk[8];
                        wkey_put_time(rk, retract_ts);
                        wmap_remove(o->input, rk, 8);
                        have_retract = false;
                        retract_cnt = 0;
                    }
                }
            } else {
                count++;
            }
            wacc_accumulate(&o->ac, o->acc, o->accn, cur, i);
            get_value(o);
            emit_row(o, cur, i);
        }
        if (have_retract && retract_cnt > 0) {
            /* keep the not yet retracted rest of the oldest list */
            uint8_t rk[8];
            wkey_put_time(rk, retract_ts);
            WBytes tmp;
            if (wmap_get(o->input, rk, 8, &tmp) == WSL_FOUND)
                wmap_put(o->input, rk, 8, rlist + rpos, rlen - rpos);
        }
        wchunk_free(cur);
        put_long(o->count_st, count);
        save_acc(o);
    }
    put_long(o->last_ts, timestamp);
}

/* ---- processing time ---- */

static void pt_range_element(OverOp *o, const WChunk *in, int r, int64_t now)
{
    uint8_t uk[8];
    wkey_put_time(uk, now);
    WBytes v;
    if (wmap_get(o->input, uk, 8, &v) != WSL_FOUND) {
        wtimers_register(o->timers, WADD(now, 1), o->kbuf.buf, o->kbuf.len, 0);
        int64_t min_cleanup = WADD(WADD(now, o->offset), 1);
        int64_t max_cleanup = WADD(WADD(now, (int64_t)((double)o->offset * 1.5)), 1);
        int64_t cur;
        if (!get_long(o->cleanup_ts, &cur) || cur < min_cleanup) {
            wtimers_register(o->timers, max_cleanup, o->kbuf.buf, o->kbuf.len, 0);
            put_long(o->cleanup_ts, max_cleanup);
        }
    }
    list_append(o, uk, in, r);
}

static void pt_range_timer(OverOp *o, int64_t timestamp)
{
    int64_t cleanup;
    if (get_long(o->cleanup_ts, &cleanup) && cleanup <= timestamp) {
        cleanup_key(o);
        return;
    }
    int64_t cur_time = timestamp - 1;
    uint8_t uk[8];
    wkey_put_time(uk, cur_time);
    WBytes v;
    if (wmap_get(o->input, uk, 8, &v) != WSL_FOUND) return;
    const void *cur_val = wa_memdup(o->work, v.p, v.len);
    size_t cur_len = v.len;
    load_acc(o);
    int64_t limit = cur_time - o->offset;
    int64_t *ts;
    int n = list_times(o, &ts);
    for (int i = 0; i < n; i++) {
        if (ts[i] >= limit) continue;
        uint8_t rk[8];
        wkey_put_time(rk, ts[i]);
        WBytes rv;
        if (wmap_get(o->input, rk, 8, &rv) == WSL_FOUND) {
            int cnt = decode_list(o, rv.p, rv.len);
            for (int r = 0; r < cnt; r++) wacc_retract(&o->ac, o->acc, o->accn, o->dec, r);
        }
        wmap_remove(o->input, rk, 8);
    }
    int cnt = decode_list(o, cur_val, cur_len);
    for (int r = 0; r < cnt; r++) wacc_accumulate(&o->ac, o->acc, o->accn, o->dec, r);
    get_value(o);
    for (int r = 0; r < cnt; r++) emit_row(o, o->dec, r);
    save_acc(o);
}

static void pt_rows_element(OverOp *o, const WChunk *in, int r, int64_t now)
{
    load_acc(o);
    int64_t smallest;
    if (!get_long(o->smallest_ts, &smallest)) {
        smallest = now;
        put_long(o->smallest_ts, smallest);
    }
    int64_t counter = 0;
    get_long(o->count_st, &counter);
    if (counter == o->offset) {
        uint8_t sk[8];
        wkey_put_time(sk, smallest);
        WBytes rv;
        bool keep = false;
        if (wmap_get(o->input, sk, 8, &rv) == WSL_FOUND && rv.len >= 4) {
            const uint8_t *list = wa_memdup(o->work, rv.p, rv.len);
            size_t len = rv.len;
            uint32_t l = wload_u32(list);
            decode_list(o, list, 4 + (size_t)l);
            wacc_retract(&o->ac, o->acc, o->accn, o->dec, 0);
            if (4 + (size_t)l < len) {
                wmap_put(o->input, sk, 8, list + 4 + l, len - 4 - l);
                keep = true;
            }
        }
        if (!keep) {
            wmap_remove(o->input, sk, 8);
            int64_t *ts;
            int n = list_times(o, &ts);
            int64_t ns = INT64_MAX;
            for (int i = 0; i < n; i++) if (ts[i] < ns) ns = ts[i];
            put_long(o->smallest_ts, ns);
        }
    } else {
        counter++;
        put_long(o->count_st, counter);
    }
    uint8_t uk[8];
    wkey_put_time(uk, now);
    list_append(o, uk, in, r);
    wacc_accumulate(&o->ac, o->acc, o->accn, in, r);
    save_acc(o);
    get_value(o);
    emit_row(o, in, r);
}

/* ---- driver ---- */

/* Insight's slow keys: the work for one key (a timer firing, a processing-time row) is the stored
   rows it decoded plus the data-view entries its aggregates read; it is timed when it read
   WINS_WORK_MIN rows or more. */
static int64_t key_work_begin(OverOp *o)
{
    o->rows_read = 0;
    o->ac.work = 0;
    return wop_key_begin(&o->base);
}

static void key_work_end(OverOp *o, int64_t t0)
{
    if (!o->base.insight) return;
    int64_t w = o->rows_read + o->ac.work;
    wop_key_work_bytes(&o->base, o->kbuf.buf, o->kbuf.len, w);
    if (w >= WINS_WORK_MIN) wop_key_slow_end_bytes(&o->base, t0, w, o->kbuf.buf, o->kbuf.len);
}

static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    OverOp *o = ctx;
    (void)ns;
    if (o->base.ctx->err->set) return;
    wstate_set_key(o->be, key, klen);
    wsb_clear(&o->kbuf);
    wsb_appendn(&o->kbuf, key, klen);
    warena_reset(o->work);
    warena_reset(&o->scratch);
    o->ac.now = wexec_now(o->base.ctx);
    int64_t t0 = key_work_begin(o);
    if (o->proctime) pt_range_timer(o, ts);
    else if (o->unbounded) rt_unbounded_timer(o);
    else if (o->rows) rt_rows_timer(o, ts);
    else rt_range_timer(o, ts);
    key_work_end(o, t0);
}

static void advance_proc(OverOp *o, int64_t now)
{
    if (now <= o->last_proc) return;
    o->last_proc = now;
    wtimers_advance(o->timers, now, on_timer, o);
}

static void over_process(WOperator *op, int input, const WChunk *in)
{
    OverOp *o = (OverOp *)op;
    (void)input;
    if (!o->L || op->ctx->err->set) return;
    int64_t now = wexec_now(op->ctx);
    if (o->proctime) advance_proc(o, now);
    o->ac.now = now;
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        if (wrowkind_is_retract(k)) {
            flush(o);
            werr_set(op->ctx->err, WEXC_TABLE,
                     "OverAggregate doesn't support consuming update and delete changes which is "
                     "produced by its input");
            return;
        }
        wrow_encode_chunk(&o->kbuf, in, r, o->nkeys, o->keys);
        wstate_set_key(o->be, o->kbuf.buf, o->kbuf.len);
        warena_reset(o->work);
        warena_reset(&o->scratch);
        if (o->proctime) {
            int64_t t0 = key_work_begin(o);
            if (o->unbounded) {
                load_acc(o);
                acc_row(o, in, r);
                get_value(o);
                emit_row(o, in, r);
                save_acc(o);
            } else if (o->rows) {
                pt_rows_element(o, in, r, now);
            } else {
                pt_range_element(o, in, r, now);
            }
            key_work_end(o, t0);
            continue;
        }
        int64_t ts = wop_datum_time(o->types[o->time_col], in->cols[o->time_col].data[r],
                                in->cols[o->time_col].nulls[r]);
        if (o->unbounded) rt_unbounded_element(o, in, r, ts);
        else rt_bounded_element(o, in, r, ts);
    }
    flush(o);
}

static void over_watermark(WOperator *op, int64_t wm)
{
    OverOp *o = (OverOp *)op;
    if (!o->L) return;
    if (o->proctime) advance_proc(o, wexec_now(op->ctx));
    else wtimers_advance(o->timers, wm, on_timer, o);
    flush(o);
    wop_emit_watermark(op, wm);
}

static void over_end(WOperator *op)
{
    OverOp *o = (OverOp *)op;
    if (o->L && o->proctime) {
        /* rows still waiting for their millisecond to pass */
        advance_proc(o, WADD(wexec_now(op->ctx), 1));
        flush(o);
    }
    wop_emit_end(op);
}

static void over_metrics(WOperator *op, WOpMetrics *m)
{
    OverOp *o = (OverOp *)op;
    wop_metrics_states(m, o->be);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
}

static void over_destroy(WOperator *op)
{
    OverOp *o = (OverOp *)op;
    if (o->L) {
        wacc_ctx_free(&o->ac);
        wacc_layout_free(o->L);
    }
    wstate_backend_free(o->be);
    wtimers_free(o->timers);
    wchunk_free(o->dec);
    wchunk_free(o->out);
    wsb_free(&o->kbuf);
    wsb_free(&o->rbuf);
    wsb_free(&o->vbuf);
    wsb_free(&o->abuf);
    warena_delete(o->work);
    warena_free(&o->scratch);
    free(o->acc);
    free(o->accn);
    free(o->vals);
    free(o->valn);
    for (int i = 0; i < o->nx; i++) {
        free(o->xs[i].buf);
        free(o->xs[i].len);
    }
    free(o->xs);
    free(o->xcalls);
    free(o->xvals);
    free(o->xvaln);
    free(o->calls);
    free(o->call_slot);
    wsb_free(&o->xbuf);
    free(o->keys);
    free(o->all);
    free(o->types);
    free(o->otypes);
    free(o);
}

static const WOpOps OVER_OPS = {.process = over_process, .watermark = over_watermark,
                                .end_input = over_end, .destroy = over_destroy,
                                .metrics = over_metrics};

WOperator *wop_over_agg_new(WExecCtx *ctx, const WOverAggSpec *spec)
{
    OverOp *o = wcalloc(1, sizeof *o);
    o->ncols = spec->in_ncols;
    size_t nc = (size_t)(o->ncols > 0 ? o->ncols : 1);
    o->types = wmalloc(sizeof *o->types * nc);
    memcpy(o->types, spec->in_types, sizeof *o->types * (size_t)o->ncols);
    o->naggs = spec->naggs;
    /* the output calls: the aggregates in order, or spec->calls (aggregates among them in the
       order of spec->aggs) */
    o->ncalls = spec->ncalls > 0 ? spec->ncalls : spec->naggs;
    size_t ncl = (size_t)(o->ncalls > 0 ? o->ncalls : 1);
    o->calls = wcalloc(ncl, sizeof *o->calls);
    o->call_slot = wcalloc(ncl, sizeof *o->call_slot);
    o->xcalls = wcalloc(ncl, sizeof *o->xcalls);
    o->xs = wcalloc(ncl, sizeof *o->xs);
    o->xvals = wcalloc(ncl, sizeof *o->xvals);
    o->xvaln = wcalloc(ncl, 1);
    wsb_init(&o->xbuf);
    int nagg_calls = 0;
    for (int i = 0; i < o->ncalls; i++) {
        if (spec->ncalls > 0) o->calls[i] = spec->calls[i];
        else o->calls[i] = (WOverCall){.fn = WOF_AGG, .agg = spec->aggs[i], .arg = -1, .default_col = -1,
                                       .type = spec->aggs[i].type};
        if (o->calls[i].fn == WOF_AGG) {
            o->call_slot[i] = nagg_calls++;
        } else {
            o->xcalls[o->nx] = &o->calls[i];
            o->call_slot[i] = -1 - o->nx++;
        }
    }
    o->out_ncols = spec->out.ncols ? spec->out.ncols : o->ncols + o->ncalls;
    o->otypes = wmalloc(sizeof *o->otypes * (size_t)(o->out_ncols ? o->out_ncols : 1));
    for (int i = 0; i < o->out_ncols; i++) {
        if (spec->out.types) o->otypes[i] = spec->out.types[i];
        else o->otypes[i] = i < o->ncols ? o->types[i] : o->calls[i - o->ncols].type;
    }
    wop_init(&o->base, &OVER_OPS, ctx, 1, o->out_ncols, o->otypes, spec->out.names);
    o->nkeys = spec->nkeys;
    o->keys = wmalloc(sizeof *o->keys * (size_t)(o->nkeys ? o->nkeys : 1));
    if (o->nkeys) memcpy(o->keys, spec->keys, sizeof *o->keys * (size_t)o->nkeys);
    o->all = wmalloc(sizeof *o->all * nc);
    for (int i = 0; i < o->ncols; i++) o->all[i] = i;
    o->time_col = spec->time_col;
    o->proctime = spec->proctime;
    o->rows = spec->rows_frame;
    o->unbounded = spec->unbounded;
    o->offset = spec->preceding + (spec->rows_frame ? 1 : 0);
    o->last_proc = INT64_MIN;
    o->be = wexec_new_backend(ctx, o->base.name ? o->base.name : "OverAggregate");
    o->input = wstate_register(o->be, "inputState", WSTATE_MAP, 0);
    o->acc_st = wstate_register(o->be, "accState", WSTATE_VALUE, 0);
    o->last_ts = wstate_register(o->be, "lastTriggeringTsState", WSTATE_VALUE, 0);
    o->cleanup_ts = wstate_register(o->be, "cleanupTsState", WSTATE_VALUE, 0);
    o->count_st = wstate_register(o->be, "processedCountState", WSTATE_VALUE, 0);
    o->smallest_ts = wstate_register(o->be, "smallestTsState", WSTATE_VALUE, 0);
    o->timers = wexec_new_timers(ctx, "OverAggregate");
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    o->dec = wchunk_new(o->ncols, o->types, 64);
    o->out = wchunk_new(o->out_ncols, o->otypes, cap);
    wsb_init(&o->kbuf);
    wsb_init(&o->rbuf);
    wsb_init(&o->vbuf);
    wsb_init(&o->abuf);
    o->work = warena_new(0);
    warena_init(&o->scratch, 0);
    if (!spec->proctime && (spec->time_col < 0 || spec->time_col >= o->ncols)) {
        werr_set(ctx->err, WEXC_TABLE, "OverAggregate: time column index %d out of range",
                 spec->time_col);
        return &o->base;
    }
    if (!spec->unbounded && spec->preceding < 0) {
        werr_set(ctx->err, WEXC_TABLE, "OverAggregate: the preceding offset must be non-negative");
        return &o->base;
    }
    if (nagg_calls != spec->naggs) {
        werr_set(ctx->err, WEXC_TABLE, "OverAggregate: %d aggregate calls for %d aggregates", nagg_calls, spec->naggs);
        return &o->base;
    }
    for (int i = 0; i < o->nx; i++) {
        const WOverCall *k = o->xcalls[i];
        bool lag = k->fn == WOF_LAG;
        if (!lag && k->fn != WOF_ROW_NUMBER && k->fn != WOF_RANK && k->fn != WOF_DENSE_RANK) {
            werr_set(ctx->err, WEXC_TABLE, "%s Function is not supported in stream mode.", wover_fn_name(k));
            return &o->base;
        }
        if (!spec->unbounded) {
            werr_set(ctx->err, WEXC_TABLE, "%s", lag ? "LAG Function with retraction is not supported in stream mode."
                                                     : "OverAggregate: a ranking function needs an unbounded frame");
            return &o->base;
        }
        if (lag && (k->arg < 0 || k->arg >= o->ncols || k->default_col >= o->ncols)) {
            werr_set(ctx->err, WEXC_TABLE, "OverAggregate: LAG argument column out of range");
            return &o->base;
        }
    }
    o->L = wacc_layout_new(spec->aggs, spec->naggs, spec->in_types, !spec->unbounded, o->be,
                           "accState", 0, ctx->err);
    if (!o->L) return &o->base;
    wacc_ctx_init(&o->ac, o->L, &o->scratch);
    o->ac.cast = ctx->cast;
    o->acc = wcalloc((size_t)o->L->nfields, sizeof *o->acc);
    o->accn = wcalloc((size_t)o->L->nfields, 1);
    o->vals = wcalloc((size_t)(o->naggs ? o->naggs : 1), sizeof *o->vals);
    o->valn = wcalloc((size_t)(o->naggs ? o->naggs : 1), 1);
    return &o->base;
}
