/*
 * window_session.c — session windows: the SESSION window TVF (Flink
 * UnalignedWindowTableFunctionOperator) and the session window aggregate (Flink
 * UnsliceSyncStateWindowAggProcessor for SESSION TVF aggregation, WindowOperator with a
 * MergingWindowSet for legacy GROUP BY SESSION).
 *
 * Semantics: a row at (shifted) time t opens the window [t, t + gap) under its key (TVF: the
 * PARTITION BY columns, aggregate: the group keys); every session of the key that intersects it
 * (bounds inclusive) is merged into one. If the resulting session has already fired (event time:
 * its end - 1 <= watermark) the row is late: dropped and counted (late_dropped). A session fires
 * when the watermark (processing time) reaches its end - 1: the TVF emits the session's rows in
 * arrival order with window_start / window_end / window_time appended (row kinds kept); the
 * aggregate emits +I[keys, aggregates, window_start, window_end, window_time] unless its record
 * count is 0. Rows with a NULL rowtime are dropped by the TVF and fail the aggregate (Flink's
 * RuntimeException).
 *
 * State (keyed by the key's binary row): value "session-windows" (the key's open sessions, pairs
 * of int64 start/end, sorted by start) and list "session-rows" (per row: int64 time, 8 bytes with
 * the row kind, then the input row as a binary row), plus timers (end - 1, key, end). An aggregate
 * whose calls all have Flink's merge and give one result whatever the order of rows and merges
 * (COUNT, SUM/$SUM0/AVG and MIN/MAX of exact types, insert-only input: order_free) keeps
 * accumulators, not rows, as Flink's merging window set does: value "session-window-aggs" holds the
 * key's sessions, each with its accumulator row; a row is accumulated into its session's, and the
 * sessions a row bridges merge their accumulators (earliest first). Any other aggregate keeps the
 * rows and accumulates a session's rows in arrival order when it fires (data views under the key
 * row ++ window end, cleared afterwards).
 * May call exec/operator, exec/accumulators, exec/window_util, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "window_session.h"
#include "accumulators.h"
#include "window_util.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITEM_HDR 16

typedef struct SessOp {
    WOperator base;
    bool agg;                   /* aggregate (else TVF) */
    int props;                  /* window columns: wwin_set_cols (-1 = TVF layout) */
    int in_ncols;
    const WType **in_types;
    int *all_cols;              /* 0..in_ncols-1 */
    int nkeys;
    int *keys;
    const WType **ktypes;
    int naggs;
    WWindowDef win;
    WWinShift shift;
    /* state */
    WStateBackend *be;
    WState *st_wins, *st_rows;
    WTimerService *timers;
    WStrBuf kbuf, ibuf, abuf;
    WSession *set, *removed;
    int set_cap;
    /* accumulators beside their sessions (order_free aggregates): the loaded value (vcur, in the
       state: valid until the next read or write of st_accs), its sessions and where their
       accumulator rows are in it */
    bool keep_accs;
    WState *st_accs;
    const unsigned char *vcur;
    WSession *old;
    size_t *old_off;
    uint32_t *old_len;
    int nold;
    const unsigned char **save_rows;    /* save_accs' scratch (set_cap each) */
    uint32_t *save_lens;
    /* aggregate */
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WDatum *acc, *macc;
    uint8_t *accn, *maccn;
    WDatum *vals;
    uint8_t *valn;
    WChunk *dec;                /* stored rows decoded for accumulation */
    uint8_t *sel;
    int sel_cap;
    /* output */
    WChunk *out;
    const WType **out_types;
    int64_t null_time_dropped;
} SessOp;

static int out_add(SessOp *s, WRowKind k) { return wop_out_row(&s->base, s->out, k); }

static void flush(SessOp *s) { wop_out_flush(&s->base, s->out); }

static void ensure_set(SessOp *s, int n)
{
    if (n + 1 <= s->set_cap) return;
    while (s->set_cap < n + 1) s->set_cap = s->set_cap ? s->set_cap * 2 : 8;
    s->set = wrealloc(s->set, sizeof *s->set * (size_t)s->set_cap);
    s->removed = wrealloc(s->removed, sizeof *s->removed * (size_t)s->set_cap);
    if (!s->keep_accs) return;
    s->old = wrealloc(s->old, sizeof *s->old * (size_t)s->set_cap);
    s->old_off = wrealloc(s->old_off, sizeof *s->old_off * (size_t)s->set_cap);
    s->old_len = wrealloc(s->old_len, sizeof *s->old_len * (size_t)s->set_cap);
    s->save_rows = wrealloc(s->save_rows, sizeof *s->save_rows * (size_t)s->set_cap);
    s->save_lens = wrealloc(s->save_lens, sizeof *s->save_lens * (size_t)s->set_cap);
}

/* Loads the current key's sessions into s->set; returns their count. */
static int load_set(SessOp *s)
{
    WBytes v;
    if (wvalue_get(s->st_wins, &v) != WSL_FOUND) return 0;
    int n = (int)(v.len / sizeof(WSession));
    ensure_set(s, n);
    memcpy(s->set, v.p, sizeof(WSession) * (size_t)n);
    return n;
}

static void save_set(SessOp *s, int n)
{
    if (n == 0) wvalue_clear(s->st_wins);
    else wvalue_put(s->st_wins, s->set, sizeof(WSession) * (size_t)n);
}

/* ---- sessions with their accumulators (keep_accs) ----
   The value: u32 n, u32 0, then per session (by start) i64 start, i64 end, u32 length, u32 0 and
   the accumulator row, padded to 8 bytes. */
#define ACC_PAD(n) (((size_t)(n) + 7) & ~(size_t)7)

/* Loads the current key's sessions into s->set (and s->old, their accumulators' places in the
   stored value, s->vcur); returns their count. */
static int load_accs(SessOp *s)
{
    WBytes v;
    s->nold = 0;
    if (wvalue_get(s->st_accs, &v) != WSL_FOUND) return 0;
    const unsigned char *p = s->vcur = v.p;
    uint32_t n;
    memcpy(&n, p, sizeof n);
    ensure_set(s, (int)n);
    size_t off = 8;
    for (uint32_t i = 0; i < n; i++) {
        assert(off + 24 <= v.len);
        memcpy(&s->old[i], p + off, sizeof(WSession));
        memcpy(&s->old_len[i], p + off + 16, sizeof(uint32_t));
        s->old_off[i] = off + 24;
        off += 24 + ACC_PAD(s->old_len[i]);
    }
    assert(off == v.len);
    s->nold = (int)n;
    memcpy(s->set, s->old, sizeof(WSession) * n);
    return (int)n;
}

/* The accumulator row of loaded session w (in s->vcur), NULL when w was not loaded. */
static const unsigned char *old_acc(const SessOp *s, WSession w, uint32_t *len)
{
    for (int i = 0; i < s->nold; i++) {
        if (s->old[i].start != w.start || s->old[i].end != w.end) continue;
        *len = s->old_len[i];
        return s->vcur + s->old_off[i];
    }
    return NULL;
}

/* Writes the key's n sessions (s->set): session `res` with the accumulator row in `acc` (NULL:
   none is new), every other with its loaded one (read from the stored value before it is
   replaced). */
static void save_accs(SessOp *s, int n, WSession res, const WStrBuf *acc)
{
    if (n == 0) { wvalue_clear(s->st_accs); return; }
    assert(n <= s->set_cap);
    const unsigned char **rows = s->save_rows;
    uint32_t *lens = s->save_lens;
    size_t total = 8;
    for (int i = 0; i < n; i++) {
        if (acc && s->set[i].start == res.start && s->set[i].end == res.end) {
            rows[i] = (const unsigned char *)acc->buf;
            lens[i] = (uint32_t)acc->len;
        } else {
            rows[i] = old_acc(s, s->set[i], &lens[i]);
            assert(rows[i]);                            /* a session kept from the loaded value */
        }
        total += 24 + ACC_PAD(lens[i]);
    }
    WStrBuf *b = &s->ibuf;
    wsb_clear(b);
    wsb_reserve(b, total);
    unsigned char *p = (unsigned char *)b->buf;
    memset(p, 0, total);
    uint32_t un = (uint32_t)n;
    memcpy(p, &un, sizeof un);
    size_t off = 8;
    for (int i = 0; i < n; i++) {
        memcpy(p + off, &s->set[i], sizeof(WSession));
        memcpy(p + off + 16, &lens[i], sizeof lens[i]);
        memcpy(p + off + 24, rows[i], lens[i]);
        off += 24 + ACC_PAD(lens[i]);
    }
    assert(off == total);
    b->len = total;
    b->buf[total] = 0;                              /* the buffer's terminator (strbuf.h) */
    wvalue_put(s->st_accs, b->buf, b->len);
}

/* Decodes loaded session w's accumulator row into acc / nulls. */
static void decode_old_acc(SessOp *s, WSession w, WDatum *acc, uint8_t *nulls)
{
    uint32_t len = 0;
    const unsigned char *row = old_acc(s, w, &len);
    assert(row);
    wacc_decode(&s->ac, row, len, acc, nulls);
}

/* Do the accumulators give one result whatever the order of rows and merges? Flink merges a
   session's accumulators in its own order when a row bridges sessions; these are the calls for
   which that order, and arrival order, change nothing: Flink's mergeable calls without LISTAGG
   (its string shows the order) and without approximate numbers (sums round by order; MIN/MAX
   compare NaN by order). */
static bool order_free(const WAccLayout *L)
{
    if (L->retract || !wacc_layout_mergeable(L)) return false;
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        if (g->kind == WAGG_LISTAGG) return false;
        if (g->arg_type && wtype_is_approx(g->arg_type)) return false;
    }
    return true;
}

static int64_t timer_of(SessOp *s, int64_t end)
{
    return wwin_timer_time(&s->shift, end - 1);
}

/* Decode stored row bytes into row o of chunk c (deep copies into c's arena). */
static void decode_row(SessOp *s, WChunk *c, int o, const void *row, size_t len)
{
    wrow_decode_chunk(row, len, s->in_ncols, s->in_types, c, o, 0, c->arena, true);
}

static void set_window_cols(SessOp *s, int c, int o, WSession w)
{
    wwin_set_cols(s->out, c, o, s->props, w.start, w.end, wwin_to_epoch(&s->shift, w.end - 1));
}

/* ---- firing ---- */

static void agg_batch(SessOp *s)
{
    WChunk *d = s->dec;
    for (int i = 0; i < d->nrows; i++) {
        if (wrowkind_is_retract((WRowKind)d->kinds[i])) wacc_retract(&s->ac, s->acc, s->accn, d, i);
        else wacc_accumulate(&s->ac, s->acc, s->accn, d, i);
    }
    /* re-home values that point into the batch before it is reset */
    wacc_encode(&s->ac, s->acc, s->accn, &s->abuf);
    wchunk_reset(d);
    wacc_decode(&s->ac, s->abuf.buf, s->abuf.len, s->acc, s->accn);
}

static void emit_agg(SessOp *s, const void *key, size_t klen, WSession w)
{
    int o = out_add(s, WRK_INSERT);
    WChunk *out = s->out;
    WArena *a = out->arena;
    wrow_decode_chunk(key, klen, s->nkeys, s->ktypes, out, o, 0, a, true);
    int c = s->nkeys;
    for (int i = 0; i < s->naggs; i++, c++) {
        out->cols[c].nulls[o] = s->valn[i];
        out->cols[c].data[o] = s->valn[i] ? (WDatum){0} : wdatum_copy(a, s->out_types[c], s->vals[i]);
    }
    set_window_cols(s, c, o, w);
}

/* Fires the current key's session ending at `end` (keep_accs): its accumulators' result. */
static void fire_accs(SessOp *s, const void *key, size_t klen, int64_t end, int64_t t0)
{
    int n = load_accs(s);
    int i = wsess_find_end(s->set, n, end);
    if (i < 0) return;
    WSession w = s->set[i];
    decode_old_acc(s, w, s->acc, s->accn);
    n = wsess_remove(s->set, n, w);
    save_accs(s, n, w, NULL);
    int64_t rows = s->accn[0] ? 0 : s->acc[0].i;
    if (rows != 0) {
        s->ac.now = wexec_now(s->base.ctx);
        wacc_get_value(&s->ac, s->acc, s->accn, s->vals, s->valn);
        emit_agg(s, key, klen, w);
    }
    warena_reset(&s->scratch);
    wop_firing_end(&s->base, t0, rows, s->out, s->out->nrows - 1);
}

/* Row r into session res of the current key (keep_accs; the key's n sessions in s->set after
   wsess_add): the accumulators of the nrem sessions it takes in (s->removed, by start) merged
   into the earliest's, then the row. */
static void accumulate_row(SessOp *s, const WChunk *in, int r, WSession res, int nrem, int n)
{
    if (nrem == 0) {
        wacc_create(s->L, s->acc, s->accn);
    } else {
        decode_old_acc(s, s->removed[0], s->acc, s->accn);
        for (int k = 1; k < nrem; k++) {
            decode_old_acc(s, s->removed[k], s->macc, s->maccn);
            wacc_merge(&s->ac, s->acc, s->accn, s->macc, s->maccn);
        }
    }
    wacc_accumulate(&s->ac, s->acc, s->accn, in, r);
    wacc_encode(&s->ac, s->acc, s->accn, &s->abuf);
    save_accs(s, n, res, &s->abuf);
}

static void fire_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t end)
{
    SessOp *s = ctx;
    (void)ts;
    int64_t t0 = wop_firing_begin(&s->base);
    wstate_set_key(s->be, key, klen);
    if (s->keep_accs) {
        fire_accs(s, key, klen, end, t0);
        return;
    }
    int n = load_set(s);
    int i = wsess_find_end(s->set, n, end);
    if (i < 0) return;
    WSession w = s->set[i];
    n = wsess_remove(s->set, n, w);
    save_set(s, n);

    const WBytes *items;
    WStateLookup how;
    int nitems = wlist_get(s->st_rows, &items, &how);
    if (nitems > s->sel_cap) {
        s->sel_cap = nitems;
        s->sel = wrealloc(s->sel, (size_t)s->sel_cap);
    }
    int nsel = 0;
    for (int k = 0; k < nitems; k++) {
        int64_t t;
        memcpy(&t, items[k].p, sizeof t);
        s->sel[k] = t >= w.start && t < w.end;
        nsel += s->sel[k];
    }
    if (!s->agg) {
        for (int k = 0; k < nitems; k++) {
            if (!s->sel[k]) continue;
            const uint8_t *p = items[k].p;
            int o = out_add(s, (WRowKind)p[8]);
            decode_row(s, s->out, o, p + ITEM_HDR, items[k].len - ITEM_HDR);
            set_window_cols(s, s->in_ncols, o, w);
        }
    } else {
        WChunk *d = s->dec;
        wchunk_reset(d);
        wacc_create(s->L, s->acc, s->accn);
        s->ac.now = wexec_now(s->base.ctx);
        /* data views of this window live under key ++ end while it is computed */
        wsb_clear(&s->kbuf);
        wsb_appendn(&s->kbuf, key, klen);
        wsb_appendn(&s->kbuf, (const char *)&end, sizeof end);
        for (int k = 0; k < nitems; k++) {
            if (!s->sel[k]) continue;
            const uint8_t *p = items[k].p;
            int o = wchunk_add_row(d, (WRowKind)p[8]);
            decode_row(s, d, o, p + ITEM_HDR, items[k].len - ITEM_HDR);
            if (d->nrows == d->cap) {
                wstate_set_key(s->be, s->kbuf.buf, s->kbuf.len);
                agg_batch(s);
                wstate_set_key(s->be, key, klen);
            }
        }
        wstate_set_key(s->be, s->kbuf.buf, s->kbuf.len);
        if (d->nrows) agg_batch(s);
        if (s->accn[0] || s->acc[0].i != 0) {
            wacc_get_value(&s->ac, s->acc, s->accn, s->vals, s->valn);
            emit_agg(s, key, klen, w);
        }
        if (s->L->has_views) wacc_cleanup(s->L);
        wstate_set_key(s->be, key, klen);
        warena_reset(&s->scratch);
    }
    /* drop the fired rows (the key's list is read again: items may have moved) */
    if (nsel == nitems) {
        wlist_clear(s->st_rows);
    } else {
        for (int k = nitems - 1; k >= 0; k--)
            if (s->sel[k]) wlist_remove_at(s->st_rows, k);
    }
    wop_firing_end(&s->base, t0, nsel, s->out, s->out->nrows - 1);
}

static void advance(SessOp *s, int64_t time)
{
    if (wtimers_next(s->timers) > time) return;
    wtimers_advance(s->timers, time, fire_timer, s);
}

/* ---- input ---- */

static void sess_process(WOperator *op, int input, const WChunk *in)
{
    SessOp *s = (SessOp *)op;
    (void)input;
    int64_t now = 0;
    if (s->win.proctime) {
        now = wexec_now(op->ctx);
        advance(s, now);
    }
    const WVector *tv = s->win.proctime ? NULL : &in->cols[s->win.time_col];
    for (int r = 0; r < in->nrows; r++) {
        WRowKind kind = (WRowKind)in->kinds[r];
        if (s->agg && wrowkind_is_retract(kind) && !s->L->retract) {
            werr_set(op->ctx->err, WEXC_TABLE,
                     "WindowAggregate received a %s row but its input was planned insert-only",
                     wrowkind_short(kind));
            break;
        }
        int64_t ts;
        if (tv) {
            if (tv->nulls[r]) {
                if (!s->agg) {
                    s->null_time_dropped++;
                    continue;
                }
                werr_set(op->ctx->err, "java.lang.RuntimeException",
                         "RowTime field should not be null, please convert it to a non-null long value.");
                break;
            }
            ts = tv->data[r].ts.ms;
        } else {
            ts = now;
        }
        ts = wwin_to_shifted(&s->shift, ts);
        wrow_encode_chunk(&s->kbuf, in, r, s->nkeys, s->keys);
        wstate_set_key(s->be, s->kbuf.buf, s->kbuf.len);
        int n = s->keep_accs ? load_accs(s) : load_set(s);
        ensure_set(s, n);
        WSession res;
        int nrem = 0;
        int n2 = wsess_add(s->set, n, ts, ts + s->win.gap_ms, &res, s->removed, &nrem);
        if (!s->win.proctime && wwin_fired(&s->shift, res.end, op->wm)) {
            wop_late_row(op, 0, in, r, winsight_lateness(op->wm, ts)); /* the window is late: retired, row dropped */
            continue;
        }
        bool unchanged = nrem == 1 && s->removed[0].start == res.start && s->removed[0].end == res.end;
        if (!unchanged) {
            for (int k = 0; k < nrem; k++)
                wtimers_delete(s->timers, timer_of(s, s->removed[k].end), s->kbuf.buf, s->kbuf.len,
                               s->removed[k].end);
            wtimers_register(s->timers, timer_of(s, res.end), s->kbuf.buf, s->kbuf.len, res.end);
            if (!s->keep_accs) save_set(s, n2);
        }
        if (s->keep_accs) {
            accumulate_row(s, in, r, res, nrem, n2);
            continue;
        }
        /* the row itself */
        wrow_encode_chunk(&s->abuf, in, r, s->in_ncols, s->all_cols);
        wsb_clear(&s->ibuf);
        wsb_appendn(&s->ibuf, (const char *)&ts, sizeof ts);
        char hdr[8] = {0};
        hdr[0] = (char)kind;
        wsb_appendn(&s->ibuf, hdr, sizeof hdr);
        wsb_appendn(&s->ibuf, s->abuf.buf, s->abuf.len);
        wlist_add(s->st_rows, s->ibuf.buf, s->ibuf.len);
    }
    if (s->keep_accs) warena_reset(&s->scratch);
    flush(s);
}

static void sess_watermark(WOperator *op, int64_t wm)
{
    SessOp *s = (SessOp *)op;
    advance(s, s->win.proctime ? wexec_now(op->ctx) : wm);
    flush(s);
    wop_emit_watermark(op, wm);
}

static void sess_end(WOperator *op)
{
    SessOp *s = (SessOp *)op;
    advance(s, INT64_MAX);
    flush(s);
    wop_emit_end(op);
}

static void sess_metrics(WOperator *op, WOpMetrics *m)
{
    SessOp *s = (SessOp *)op;
    wop_metrics_timed(m, s->be, s->timers);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
    if (!s->agg) wop_metrics_value(m, "numNullRowTimeRecordsDropped", s->null_time_dropped);
}

static void sess_destroy(WOperator *op)
{
    SessOp *s = (SessOp *)op;
    if (s->L) {
        wacc_ctx_free(&s->ac);
        wacc_layout_free(s->L);
    }
    if (s->be) wstate_backend_free(s->be);
    if (s->timers) wtimers_free(s->timers);
    warena_free(&s->scratch);
    if (s->out) wchunk_free(s->out);
    if (s->dec) wchunk_free(s->dec);
    wsb_free(&s->kbuf);
    wsb_free(&s->ibuf);
    wsb_free(&s->abuf);
    free(s->set);
    free(s->removed);
    free(s->old);
    free(s->old_off);
    free(s->old_len);
    free(s->save_rows);
    free(s->save_lens);
    free(s->macc);
    free(s->maccn);
    free(s->sel);
    free(s->all_cols);
    free(s->keys);
    free(s->ktypes);
    free(s->acc);
    free(s->accn);
    free(s->vals);
    free(s->valn);
    free(s->out_types);
    free(s);
}

/* processing-time sessions close on the job clock, also between rows */
static void sess_tick(WOperator *op)
{
    SessOp *s = (SessOp *)op;
    if (!s->win.proctime) return;
    advance(s, wexec_now(op->ctx));
    flush(s);
}

static const WOpOps SESS_OPS = {.process = sess_process, .watermark = sess_watermark, .tick = sess_tick,
                                .end_input = sess_end, .destroy = sess_destroy,
                                .metrics = sess_metrics};

/* The states of the sessions and their rows (the TVF, and aggregates that keep rows). */
static void register_row_states(SessOp *s)
{
    s->st_wins = wstate_register(s->be, "session-windows", WSTATE_VALUE, 0);
    s->st_rows = wstate_register(s->be, "session-rows", WSTATE_LIST, 0);
}

static SessOp *sess_new(WExecCtx *ctx, bool agg, int in_ncols, const WType **in_types,
                        const WWindowDef *win, int nkeys, const int *keys, const WOpSchema *out,
                        const char *name)
{
    SessOp *s = wcalloc(1, sizeof *s);
    s->out_types = wmalloc(sizeof *s->out_types * (size_t)out->ncols);
    memcpy(s->out_types, out->types, sizeof *s->out_types * (size_t)out->ncols);
    wop_init(&s->base, &SESS_OPS, ctx, 1, out->ncols, s->out_types, out->names);
    s->base.name = name;
    s->agg = agg;
    s->props = -1;
    s->in_ncols = in_ncols;
    s->in_types = in_types;
    s->all_cols = wmalloc(sizeof *s->all_cols * (size_t)(in_ncols ? in_ncols : 1));
    for (int c = 0; c < in_ncols; c++) s->all_cols[c] = c;
    s->nkeys = nkeys;
    s->keys = wmalloc(sizeof *s->keys * (size_t)(nkeys ? nkeys : 1));
    s->ktypes = wmalloc(sizeof *s->ktypes * (size_t)(nkeys ? nkeys : 1));
    for (int k = 0; k < nkeys; k++) {
        s->keys[k] = keys[k];
        s->ktypes[k] = in_types[keys[k]];
    }
    s->win = *win;
    s->shift = wwin_shift_of(win, ctx->start_ms ? ctx->start_ms : wexec_now(ctx));
    warena_init(&s->scratch, 0);
    wsb_init(&s->kbuf);
    wsb_init(&s->ibuf);
    wsb_init(&s->abuf);
    s->be = wexec_new_backend(ctx, name);
    if (!agg) register_row_states(s);
    s->timers = wexec_new_timers(ctx, name);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    s->out = wchunk_new(out->ncols, s->out_types, cap);
    return s;
}

static bool check_common(WExecCtx *ctx, const WWindowDef *win, int in_ncols, int nkeys,
                         const int *keys, const WOpSchema *out, int nout, const char *what)
{
    if (!wwin_validate(win, ctx->err)) return false;
    if (out->ncols != nout || !out->types)
        return werr_set(ctx->err, WEXC_TABLE, "%s: output must have %d columns, got %d", what, nout,
                        out->ncols);
    if (!win->proctime && (win->time_col < 0 || win->time_col >= in_ncols))
        return werr_set(ctx->err, WEXC_TABLE, "%s: time column %d out of range", what,
                        win->time_col);
    for (int k = 0; k < nkeys; k++)
        if (keys[k] < 0 || keys[k] >= in_ncols)
            return werr_set(ctx->err, WEXC_TABLE, "%s: key column %d out of range", what, keys[k]);
    return true;
}

WOperator *wop_session_tvf_new(WExecCtx *ctx, const WWindowTvfSpec *spec)
{
    if (!check_common(ctx, &spec->win, spec->in_ncols, spec->win.npartition, spec->win.partition,
                      &spec->out, spec->in_ncols + 3, "WindowTableFunction"))
        return NULL;
    SessOp *s = sess_new(ctx, false, spec->in_ncols, spec->in_types, &spec->win,
                         spec->win.npartition, spec->win.partition, &spec->out,
                         "WindowTableFunction");
    return &s->base;
}

WOperator *wop_session_agg_new(WExecCtx *ctx, const WWindowAggSpec *spec)
{
    int props = wwin_spec_props(spec);
    if (props > 0 && props != 3 && props != 4) props = 3;   /* rejected by the column check */
    if (!check_common(ctx, &spec->win, spec->in_ncols, spec->nkeys, spec->keys, &spec->out,
                      spec->nkeys + spec->naggs + wwin_ncols(props), "WindowAggregate"))
        return NULL;
    SessOp *s = sess_new(ctx, true, spec->in_ncols, spec->in_types, &spec->win, spec->nkeys,
                         spec->keys, &spec->out, "WindowAggregate");
    s->props = props;
    s->naggs = spec->naggs;
    s->L = wacc_layout_new(spec->aggs, spec->naggs, spec->in_types, spec->input_retracts, s->be,
                           "window-aggs", 0, ctx->err);
    if (!s->L) {
        wop_free(&s->base);
        return NULL;
    }
    wacc_ctx_init(&s->ac, s->L, &s->scratch);
    s->ac.cast = ctx->cast;
    s->acc = wcalloc((size_t)s->L->nfields, sizeof *s->acc);
    s->accn = wcalloc((size_t)s->L->nfields, 1);
    s->keep_accs = order_free(s->L);
    if (s->keep_accs) {
        s->st_accs = wstate_register(s->be, "session-window-aggs", WSTATE_VALUE, 0);
        s->macc = wcalloc((size_t)s->L->nfields, sizeof *s->macc);
        s->maccn = wcalloc((size_t)s->L->nfields, 1);
    } else {
        register_row_states(s);
    }
    s->vals = wcalloc((size_t)(spec->naggs ? spec->naggs : 1), sizeof *s->vals);
    s->valn = wcalloc((size_t)(spec->naggs ? spec->naggs : 1), 1);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    s->dec = wchunk_new(spec->in_ncols, spec->in_types, cap);
    return &s->base;
}
