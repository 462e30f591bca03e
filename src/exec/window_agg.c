/*
 * window_agg.c — the WindowAggregate operator for TUMBLE / HOP / CUMULATE windows, as Flink's
 * SlicingWindowOperator (window TVF aggregation) and WindowOperator (legacy GROUP BY TUMBLE/HOP)
 * emit them; SESSION windows are handed to window_session.c.
 *
 * Semantics (Flink AbstractSliceSyncStateWindowAggProcessor, Slice(Un)SharedSyncStateWindowAgg-
 * Processor, AggCombiner, TimeWindowUtil):
 *   - a row's time (rowtime column, or the job clock for processing time) is shifted into the
 *     session zone for TIMESTAMP_LTZ attributes, and assigned to its windows;
 *   - event time: a window whose end - 1 is <= the current watermark has fired; the row is
 *     accumulated into every window of it that has not fired, and dropped (late_dropped, Flink's
 *     numLateRecordsDropped) when all have. This equals Flink's slice logic (a late slice goes to
 *     the not yet fired windows, and is dropped once the last window that shares it fired);
 *   - a window fires when the watermark (processing time) reaches the timer of end - 1; it emits
 *     +I[keys, aggregates, window_start, window_end, window_time] unless its record count is 0
 *     (Flink: the COUNT(*) that HOP windows and retracting inputs carry), then clears its state;
 *   - retractions (-U/-D, input_retracts) retract from the accumulators of their windows;
 *   - attached windows (win.attached, Flink's WindowAttachedWindowingStrategy): the rows are the
 *     output of an earlier window and carry window_start / window_end; each row goes to that one
 *     window, which fires as above;
 *   - GlobalWindowAggregate (spec->merge, Flink's SlicingWindowOperator over a local aggregate's
 *     output, SliceAttached / WindowAttached strategies): a row is one slice's partial
 *     accumulators with the slice end; it is merged (wacc_merge_partial) into every window of
 *     the slice (sliced windows: into the slice, see below)
 *     that has not fired and dropped as late when all have (Flink merges a late slice
 *     into the windows not yet fired, the same rule); with slice_is_window the end is the one
 *     window's end. Firing, state and checkpoints are the one-phase operator's.
 * Slices (Flink SliceSharedAssigner; the legacy WindowOperator's panes): HOP and CUMULATE windows
 * assigned from time keep one accumulator per (key, slice) when every accumulator merges
 * (wacc_layout_mergeable; Flink needs merge for these windows and refuses FIRST_VALUE /
 * LAST_VALUE, which have none, with its code generator's message). A slice is gcd(size, slide)
 * for HOP (the slide for a TVF) and the step for CUMULATE (window_util.h). A row (a local
 * aggregate's partial row) goes to its slice; when its slice's first window has fired but its
 * last has not, HOP still adds it to its slice and CUMULATE to the window's first slice (Flink's
 * sliceStateMergeTarget), when all have it is dropped as above. A slice that gets state
 * registers a timer for each of its unfired windows (the timers one accumulator per window
 * would register, at the same rows: the firing order is unchanged). A HOP window fires by merging
 * its slices in time order into fresh accumulators (wacc_merge) and clears the slices no later
 * window contains (those of its first slide); a CUMULATE window merges its last slice into the
 * running accumulator kept in its first slice, clears that slice, and the max-size window clears
 * the first slice as well. Results, changelog, late-row counts and the emptiness rule are the
 * per-window ones. Aggregates without a scalar merge (DISTINCT, MIN/MAX/LISTAGG with retraction,
 * STDDEV/VAR, SINGLE_VALUE) keep one accumulator per window; TUMBLE, SESSION (window_session.c)
 * and attached windows are one window per row. At end of input the framework's final watermark
 * fires every event-time window; processing-time windows fire then as well.
 *
 * State: value state "window-aggs" under the key (group key binary row ++ namespace, 8 bytes): the
 * window end, or the slice end for sliced windows, so that DISTINCT / MIN-MAX retract data views
 * of the accumulator library are per window; timers (timers.h) with the key bytes ++ window end
 * and the window end as namespace.
 * May call exec/operator, exec/accumulators, exec/window_util, exec/window_session, state/,
 * types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "windowed.h"
#include "accumulators.h"
#include "window_util.h"
#include "window_session.h"
#include "../state/prefetch.h"
#include "../state/timers.h"
#include "../types/row.h"
#include "../common/hash.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWTIME_NULL_MSG \
    "RowTime field should not be null, please convert it to a non-null long value."

typedef struct Slot Slot;

typedef struct WindowAggOp {
    WOperator base;
    int props;                  /* window columns: wwin_set_cols (-1 = TVF layout) */
    int in_ncols;
    int nkeys;
    int *keys;
    const WType **ktypes;
    int naggs;
    WWindowDef win;
    WWinShift shift;
    bool retracts;
    int max_windows;
    int64_t *starts, *ends;
    /* accumulators */
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WDatum *acc;
    uint8_t *accn;
    WDatum *vals;
    uint8_t *valn;
    /* state */
    WStateBackend *be;
    WState *st;                 /* window-aggs */
    WTimerService *timers;
    WStrBuf kbuf, abuf, tbuf;
    int *prev_slot;             /* per window index: the previous row's slot */
    /* chunk-local grouping of (row, window) pairs by state key */
    WStrBuf kbytes;
    Slot *slots;
    int nslots;
    int *pair_row, *pair_next;
    int pair_cap;
    int32_t *table;
    size_t tcap;
    /* output */
    WChunk *out;
    const WType **out_types;
    int64_t fired, emitted;
    /* GlobalWindowAggregate */
    bool merge, slice_is_window;
    int slice_col;
    WArena parena;
    WAggPartial P;
    /* slice-shared HOP / CUMULATE (see the file comment) */
    bool sliced;
    WState *per_window_st;          /* sliced: the per-window layout's state, which must stay empty (a
                                       snapshot of an older weir restored here would fill it) */
    bool layout_checked, layout_bad;
    int64_t slice_ms;
    /* the lowest and highest slice end this instance's slice state ever held (restored entries
       included; empty: lo > hi): a HOP window reads only its slices inside them, the others hold
       nothing (a bounded input's last windows, an input's first ones) */
    int64_t slice_lo, slice_hi;
    WDatum *macc;               /* a slice's accumulator while it is merged */
    uint8_t *maccn;
    WStrBuf skey;               /* key ++ slice end */
} WindowAggOp;

static int out_add(WindowAggOp *w) { return wop_out_row(&w->base, w->out, WRK_INSERT); }

static void flush(WindowAggOp *w) { wop_out_flush(&w->base, w->out); }

/* ---- firing ---- */

static void emit_window(WindowAggOp *w, const void *key, size_t klen, int64_t end)
{
    int o = out_add(w);
    WChunk *out = w->out;
    WArena *a = out->arena;
    wrow_decode_chunk(key, klen, w->nkeys, w->ktypes, out, o, 0, a, true);
    int c = w->nkeys;
    for (int i = 0; i < w->naggs; i++, c++) {
        out->cols[c].nulls[o] = w->valn[i];
        out->cols[c].data[o] = w->valn[i] ? (WDatum){0} : wdatum_copy(a, w->out_types[c], w->vals[i]);
    }
    int64_t start = wwin_start_of(&w->win, end);
    wwin_set_cols(out, c, o, w->props, start, end, wwin_to_epoch(&w->shift, end - 1));
    w->emitted++;
}

/* Sliced state: points the backend at (key, slice end) in w->skey (the key part is set). */
static void slice_key(WindowAggOp *w, int64_t slice_end)
{
    memcpy(w->skey.buf + w->skey.len - sizeof slice_end, &slice_end, sizeof slice_end);
    wstate_set_key(w->be, w->skey.buf, w->skey.len);
}

/* Reads the current slice's accumulator into acc (merged into w->acc when `merge`); false when
   the slice has no state. */
static bool slice_read(WindowAggOp *w, bool merge)
{
    WBytes v;
    if (wvalue_get(w->st, &v) != WSL_FOUND) return false;
    if (!merge) {
        wacc_decode(&w->ac, v.p, v.len, w->acc, w->accn);
        return true;
    }
    wacc_decode(&w->ac, v.p, v.len, w->macc, w->maccn);
    wacc_merge(&w->ac, w->acc, w->accn, w->macc, w->maccn);
    return true;
}

/* The slice ends [*first, *last] of the HOP window ending at `end` that may hold state (inside
   slice_lo..slice_hi, on the window's slice grid); false when none may. */
static bool hop_slices_held(const WindowAggOp *w, int64_t end, int64_t *first, int64_t *last)
{
    if (w->slice_lo > w->slice_hi) return false;
    *first = wwin_start_of(&w->win, end) + w->slice_ms;
    *last = end < w->slice_hi ? end : w->slice_hi;
    if (w->slice_lo > *first) *first += (w->slice_lo - *first) / w->slice_ms * w->slice_ms;
    return *first <= *last;
}

/* The accumulator of the window ending at `end` from its slices, into w->acc; the slices no later
   window needs are cleared (Flink SliceSharedAssigner.mergeSlices / expiredSlices). HOP merges the
   window's slices in time order into fresh accumulators and clears the slices of its first slide;
   CUMULATE keeps the running accumulator in the window's first slice: the slice ending at `end`
   is merged into it and cleared, and the last window clears the first slice as well. False when
   no slice of the window has state. */
static bool merge_slices(WindowAggOp *w, const void *key, size_t klen, int64_t end)
{
    wsb_clear(&w->skey);
    wsb_appendn(&w->skey, key, klen);
    wsb_appendn(&w->skey, (const char *)&end, sizeof end);
    int64_t start = wwin_start_of(&w->win, end);
    bool any = false;
    if (w->win.kind == WWIN_HOP) {
        int64_t expire_to = start + w->win.slide_ms;
        int64_t first, last;
        if (!hop_slices_held(w, end, &first, &last)) return false;
        for (int64_t t = first; t <= last; t += w->slice_ms) {
            slice_key(w, t);
            if (!slice_read(w, any)) continue;
            any = true;
            if (t <= expire_to) wvalue_clear(w->st);
        }
        return any;
    }
    assert(w->win.kind == WWIN_CUMULATE);
    int64_t first = start + w->slice_ms, last = start + w->win.size_ms;
    slice_key(w, first);
    any = slice_read(w, false);
    if (end != first) {
        slice_key(w, end);
        if (!any) wacc_create(w->L, w->acc, w->accn);
        if (slice_read(w, true)) {
            wvalue_clear(w->st);
            if (end != last) {
                wacc_encode(&w->ac, w->acc, w->accn, &w->abuf);
                slice_key(w, first);
                wvalue_put(w->st, w->abuf.buf, w->abuf.len);
            }
            any = true;
        }
    }
    if (any && end == last) {
        slice_key(w, first);
        wvalue_clear(w->st);
    }
    return any;
}

static void fire_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    WindowAggOp *w = ctx;
    (void)ts;
    if (klen < sizeof(int64_t)) return;
    int64_t t0 = wop_firing_begin(&w->base);
    if (w->sliced) {
        if (!merge_slices(w, key, klen - sizeof(int64_t), ns)) return;
        w->fired++;
        int64_t rows = w->acc[0].i;
        bool emitted = rows != 0;
        if (emitted) {
            wacc_get_value(&w->ac, w->acc, w->accn, w->vals, w->valn);
            emit_window(w, key, klen - sizeof(int64_t), ns);
        }
        wop_firing_end(&w->base, t0, rows, emitted ? w->out : NULL, w->out->nrows - 1);
        return;
    }
    wstate_set_key(w->be, key, klen);
    WBytes v;
    if (wvalue_get(w->st, &v) != WSL_FOUND) return;
    w->fired++;
    wacc_decode(&w->ac, v.p, v.len, w->acc, w->accn);
    /* field 0 is the record count: an empty window (all retracted) is not emitted */
    int64_t rows = w->accn[0] ? 0 : w->acc[0].i;
    bool emitted = w->accn[0] || w->acc[0].i != 0;
    if (emitted) {
        wacc_get_value(&w->ac, w->acc, w->accn, w->vals, w->valn);
        emit_window(w, key, klen - sizeof(int64_t), ns);
    }
    wvalue_clear(w->st);
    if (w->L->has_views) wacc_cleanup(w->L);
    wop_firing_end(&w->base, t0, rows, emitted ? w->out : NULL, w->out->nrows - 1);
}

static void prefetch_key(const WState *st, const void *key, size_t klen, bool entry)
{
    uint64_t h = wstate_key_hash(key, klen);
    if (entry) wstate_prefetch_entry(st, h);
    else wstate_prefetch_slot(st, h);
}

/* Read-ahead of the state a timer's firing reads (wtimers_advance_ahead; when the state outgrew
   the CPU caches): the window's slices (HOP: each; CUMULATE: its first and last), or its own
   accumulator. */
static void fire_ahead(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns, bool entry)
{
    WindowAggOp *w = ctx;
    (void)ts;
    if (!w->sliced) { prefetch_key(w->st, key, klen, entry); return; }
    unsigned char sk[256];
    if (klen < sizeof(int64_t) || klen > sizeof sk) return;
    size_t kl = klen - sizeof(int64_t);
    memcpy(sk, key, kl);
    int64_t first = wwin_start_of(&w->win, ns) + w->slice_ms, last = ns;
    int64_t step = w->win.kind == WWIN_HOP ? w->slice_ms : ns - first;     /* CUMULATE: first, ns */
    if (w->win.kind == WWIN_HOP && !hop_slices_held(w, ns, &first, &last)) return;    /* as merge_slices */
    for (int64_t t = first; t <= last; t += step) {
        memcpy(sk + kl, &t, sizeof t);      /* as slice_key */
        prefetch_key(w->st, sk, klen, entry);
        if (step == 0) break;
    }
}

static void advance(WindowAggOp *w, int64_t time)
{
    if (wtimers_next(w->timers) > time) return;
    w->ac.now = wexec_now(w->base.ctx);
    wtimers_advance_ahead(w->timers, time, fire_timer, wstate_outgrows_cache(w->st) ? fire_ahead : NULL, w);
    warena_reset(&w->scratch);
}

/* ---- input ----
   A chunk is processed in two passes: every (row, unfired window) pair is grouped by its state
   key (key row ++ window end) in a chunk-local table, then each group reads its accumulator once,
   accumulates its rows in arrival order and writes it back once. */

struct Slot {
    uint64_t hash;
    size_t koff;                /* composite key bytes in w->kbytes */
    uint32_t klen;
    int64_t end;
    int head, tail;             /* pairs of this slot, in row order */
};

static void ensure_pairs(WindowAggOp *w, int n)
{
    if (n <= w->pair_cap) return;
    while (w->pair_cap < n) w->pair_cap = w->pair_cap ? w->pair_cap * 2 : 4096;
    w->pair_row = wrealloc(w->pair_row, sizeof *w->pair_row * (size_t)w->pair_cap);
    w->pair_next = wrealloc(w->pair_next, sizeof *w->pair_next * (size_t)w->pair_cap);
    w->slots = wrealloc(w->slots, sizeof *w->slots * (size_t)w->pair_cap);
    size_t tcap = 1;
    while (tcap < (size_t)w->pair_cap * 2) tcap <<= 1;
    w->table = wrealloc(w->table, sizeof *w->table * tcap);
    w->tcap = tcap;
}

/* Equality of binary rows (their length is a multiple of 8). */
static inline bool bytes_eq(const char *a, const char *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) return false;
    }
    return i == n || memcmp(a + i, b + i, n - i) == 0;
}

static int find_slot(WindowAggOp *w, uint64_t h, const char *key, size_t klen, int64_t end)
{
    size_t mask = w->tcap - 1;
    size_t i = (size_t)h & mask;
    for (;;) {
        int s = w->table[i];
        if (s < 0) break;
        Slot *sl = &w->slots[s];
        if (sl->hash == h && sl->end == end && sl->klen == klen + sizeof(int64_t) &&
            bytes_eq(w->kbytes.buf + sl->koff, key, klen))
            return s;
        i = (i + 1) & mask;
    }
    int s = w->nslots++;
    w->table[i] = s;
    Slot *sl = &w->slots[s];
    sl->hash = h;
    sl->end = end;
    sl->koff = w->kbytes.len;
    sl->klen = (uint32_t)(klen + sizeof(int64_t));
    wsb_appendn(&w->kbytes, key, klen);
    wsb_appendn(&w->kbytes, (const char *)&end, sizeof end);
    sl->head = sl->tail = -1;
    return s;
}

/* A slice that gets state registers a timer for each of its windows not fired yet, in Flink's
   window order: the same timers, registered at the same rows, as one accumulator per window
   would register (a window's timer comes with the first row of any of its slices), so windows
   fire in the same order. */
static void register_slice_timers(WindowAggOp *w, const char *key, size_t klen, int64_t slice_end)
{
    int n = wwin_assign(&w->win, slice_end - 1, w->starts, w->ends, w->max_windows);
    if (n > w->max_windows) n = w->max_windows;
    wsb_clear(&w->skey);
    wsb_appendn(&w->skey, key, klen);
    wsb_appendn(&w->skey, (const char *)&slice_end, sizeof slice_end);
    /* two passes: the timer set's slots of all the windows read ahead, then the registrations
       (their cache misses overlap) */
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < n; k++) {
            int64_t e = w->ends[k];
            if (!w->win.proctime && wwin_fired(&w->shift, e, w->base.wm)) continue;
            memcpy(w->skey.buf + klen, &e, sizeof e);
            int64_t t = wwin_timer_time(&w->shift, e - 1);
            if (pass == 0) wtimers_prefetch(w->timers, t, w->skey.buf, w->skey.len, e);
            else wtimers_register(w->timers, t, w->skey.buf, w->skey.len, e);
        }
    }
}

static void slice_seen(WindowAggOp *w, int64_t slice_end)
{
    if (slice_end < w->slice_lo) w->slice_lo = slice_end;
    if (slice_end > w->slice_hi) w->slice_hi = slice_end;
}

static void apply_slot(WindowAggOp *w, const WChunk *in, const Slot *sl)
{
    const char *key = w->kbytes.buf + sl->koff;
    wstate_set_key(w->be, key, sl->klen);
    WBytes v;
    bool fresh = wvalue_get(w->st, &v) != WSL_FOUND;
    if (fresh) wacc_create(w->L, w->acc, w->accn);
    else wacc_decode(&w->ac, v.p, v.len, w->acc, w->accn);
    for (int p = sl->head; p >= 0; p = w->pair_next[p]) {
        int r = w->pair_row[p];
        if (w->merge) wacc_merge_partial(&w->ac, &w->P, w->acc, w->accn, in, r, w->nkeys);
        else if (wrowkind_is_retract((WRowKind)in->kinds[r])) wacc_retract(&w->ac, w->acc, w->accn, in, r);
        else wacc_accumulate(&w->ac, w->acc, w->accn, in, r);
    }
    wacc_encode(&w->ac, w->acc, w->accn, &w->abuf);
    wvalue_put(w->st, w->abuf.buf, w->abuf.len);
    if (fresh && w->sliced) {
        slice_seen(w, sl->end);         /* a slice that existed was seen when made or restored */
        register_slice_timers(w, key, sl->klen - sizeof(int64_t), sl->end);
    } else if (fresh) {
        int64_t t = wwin_timer_time(&w->shift, sl->end - 1);
        wtimers_register(w->timers, t, key, sl->klen, sl->end);
    }
}

/* The time of input row r: its rowtime (tv), or `now` for processing time; false with err set
   for a NULL rowtime. */
static bool row_time(int r, const WVector *tv, int64_t now, int64_t *ts, WError *err)
{
    *ts = now;
    if (!tv) return true;
    if (tv->nulls[r]) return werr_set(err, "java.lang.RuntimeException", ROWTIME_NULL_MSG);
    *ts = tv->data[r].ts.ms;
    return true;
}

/* The windows of input row r into w->starts / w->ends: the row's own window_start/window_end
   columns (sv/ev, attached windows), else assigned from its time (tv, or `now` for processing
   time). Returns how many, or -1 with err set for a NULL time or window bound. */
static int row_windows(WindowAggOp *w, int r, const WVector *sv, const WVector *ev, const WVector *tv,
                       int64_t now, WError *err)
{
    if (w->merge) {
        /* the slice end of a local aggregate's row (never NULL: the local aggregate sets it) */
        int64_t se = tv->data[r].i;
        if (w->slice_is_window) {
            w->starts[0] = wwin_start_of(&w->win, se);
            w->ends[0] = se;
            return 1;
        }
        int n = wwin_assign(&w->win, se - 1, w->starts, w->ends, w->max_windows);
        return n > w->max_windows ? w->max_windows : n;
    }
    if (ev) {
        if (sv->nulls[r] || ev->nulls[r]) {
            werr_set(err, "java.lang.RuntimeException",
                     "WindowAggregate received a row whose window_start or window_end is null");
            return -1;
        }
        w->starts[0] = sv->data[r].ts.ms;
        w->ends[0] = ev->data[r].ts.ms;
        return 1;
    }
    int64_t ts;
    if (!row_time(r, tv, now, &ts, err)) return -1;
    int n = wwin_assign(&w->win, wwin_to_shifted(&w->shift, ts), w->starts, w->ends, w->max_windows);
    return n > w->max_windows ? w->max_windows : n;
}

/* Sliced: the state slice of input row r into w->ends[0]: its slice (Flink assignSliceEnd; a
   local aggregate's row carries it), or, when that slice's first window has fired but its last
   has not, the slice Flink merges a late slice into (HOP: the slice itself; CUMULATE: the first
   slice, which holds the running accumulator). Returns 1, 0 for a late row (all its windows
   fired; *last_end = the last one's end), -1 with err set for a NULL time. */
static int row_slice(WindowAggOp *w, int r, const WVector *tv, int64_t now, int64_t *last_end, WError *err)
{
    int64_t se;
    if (w->merge) {
        se = tv->data[r].i;
    } else {
        int64_t ts;
        if (!row_time(r, tv, now, &ts, err)) return -1;
        se = wwin_slice_end(&w->win, wwin_to_shifted(&w->shift, ts));
    }
    w->ends[0] = se;
    if (w->win.proctime || !wwin_fired(&w->shift, se, w->base.wm)) return 1;
    int64_t last = wwin_slice_last_window_end(&w->win, se);
    if (wwin_fired(&w->shift, last, w->base.wm)) {
        *last_end = last;
        return 0;
    }
    if (w->win.kind == WWIN_CUMULATE) w->ends[0] = wwin_first_slice_end(&w->win, se);
    return 1;
}

static void count_entry(void *ctx, WBytes key, WBytes value)
{
    (void)key;
    (void)value;
    ++*(int64_t *)ctx;
}

/* A restored slice's end: its key's last 8 bytes (key row ++ slice end, as slice_key writes). */
static void restored_slice(void *ctx, WBytes key, WBytes value)
{
    WindowAggOp *w = ctx;
    (void)value;
    if (key.len < sizeof(int64_t)) {
        w->slice_lo = INT64_MIN;
        w->slice_hi = INT64_MAX;
        return;
    }
    int64_t end;
    memcpy(&end, (const char *)key.p + key.len - sizeof end, sizeof end);
    slice_seen(w, end);
}

/* Once, before the first rows, watermark or tick (after any restore): a sliced operator takes
   the slice ends a snapshot brought (slice_lo / slice_hi) and refuses state of the per-window
   layout, which a snapshot taken by a weir before slices holds under the same operator (its
   windows' ends would read as slice ends). */
static bool layout_ok(WindowAggOp *w)
{
    if (!w->sliced) return true;
    if (w->layout_checked) return !w->layout_bad;
    w->layout_checked = true;
    wstate_for_each(w->st, restored_slice, w);     /* the slices a snapshot brought */
    int64_t n = 0;
    wstate_for_each(w->per_window_st, count_entry, &n);
    if (n == 0) return true;
    w->layout_bad = true;
    if (!w->base.ctx->err->set)
        werr_set(w->base.ctx->err, WEXC_TABLE,
                 "Cannot restore the HOP / CUMULATE window state of '%s': the snapshot keeps one accumulator "
                 "per window (state 'window-aggs', %lld entries, written by a weir before slice-shared windows); "
                 "this weir keeps one per slice ('window-slices'). Restore the snapshot with the weir that wrote "
                 "it, or start the job without it.", w->base.name ? w->base.name : "WindowAggregate", (long long)n);
    return false;
}

static void wagg_process(WOperator *op, int input, const WChunk *in)
{
    WindowAggOp *w = (WindowAggOp *)op;
    if (!layout_ok(w)) return;
    int64_t now = 0;
    if (w->win.proctime) {
        now = wexec_now(op->ctx);
        advance(w, now);
    }
    w->ac.now = wexec_now(op->ctx);
    const WVector *tv = w->merge ? &in->cols[w->slice_col]
                      : w->win.proctime || w->win.attached ? NULL : &in->cols[w->win.time_col];
    const WVector *sv = w->win.attached ? &in->cols[w->win.start_col] : NULL;
    const WVector *ev = w->win.attached ? &in->cols[w->win.end_col] : NULL;
    ensure_pairs(w, in->nrows * w->max_windows);
    memset(w->table, 0xff, sizeof *w->table * w->tcap);
    w->nslots = 0;
    wsb_clear(&w->kbytes);
    int npairs = 0;
    bool have_key = false;
    uint64_t kh = 0;
    for (int j = 0; j < w->max_windows; j++) w->prev_slot[j] = -1;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind kind = (WRowKind)in->kinds[r];
        if (wrowkind_is_retract(kind) && (!w->retracts || w->merge)) {
            werr_set(op->ctx->err, WEXC_TABLE,
                     "WindowAggregate received a %s row but its input was planned insert-only",
                     wrowkind_short(kind));
            break;
        }
        int n;
        if (w->sliced) {
            int64_t last_end = 0;
            n = row_slice(w, r, tv, now, &last_end, op->ctx->err);
            if (n < 0) break;
            if (n == 0) {
                wop_late_row(op, input, in, r, winsight_lateness(op->wm, last_end - 1));
                continue;
            }
        } else {
            n = row_windows(w, r, sv, ev, tv, now, op->ctx->err);
            if (n < 0) break;
        }
        bool any = false;
        for (int k = 0; k < n; k++) {
            if (!w->sliced && !w->win.proctime && wwin_fired(&w->shift, w->ends[k], op->wm)) continue;
            if (!any) {
                any = true;
                if (w->nkeys > 0 || !have_key) {
                    /* the previous row's key is kept in kbuf: a run of equal keys skips hashing */
                    wrow_encode_chunk(&w->tbuf, in, r, w->nkeys, w->keys);
                    if (!have_key || w->tbuf.len != w->kbuf.len ||
                        !bytes_eq(w->tbuf.buf, w->kbuf.buf, w->kbuf.len)) {
                        WStrBuf t = w->kbuf;
                        w->kbuf = w->tbuf;
                        w->tbuf = t;
                        kh = whash_bytes(w->kbuf.buf, w->kbuf.len, 0x9e3779b97f4a7c15ULL);
                        have_key = true;
                        for (int j = 0; j < w->max_windows; j++) w->prev_slot[j] = -1;
                    }
                }
            }
            int s;
            if (w->prev_slot[k] >= 0 && w->slots[w->prev_slot[k]].end == w->ends[k]) {
                s = w->prev_slot[k];
            } else {
                uint64_t h = whash_combine(kh, (uint64_t)w->ends[k]);
                s = find_slot(w, h, w->kbuf.buf, w->kbuf.len, w->ends[k]);
                w->prev_slot[k] = s;
            }
            Slot *sl = &w->slots[s];
            int p = npairs++;
            w->pair_row[p] = r;
            w->pair_next[p] = -1;
            if (sl->tail >= 0) w->pair_next[sl->tail] = p;
            else sl->head = p;
            sl->tail = p;
        }
        if (!any) {
            int64_t last_end = INT64_MIN;
            for (int k = 0; k < n; k++) if (w->ends[k] > last_end) last_end = w->ends[k];
            wop_late_row(op, input, in, r, n > 0 ? winsight_lateness(op->wm, last_end - 1) : 0);
        }
    }
    for (int s = 0; s < w->nslots; s++) {
        apply_slot(w, in, &w->slots[s]);
        if ((s & 255) == 255) warena_reset(&w->scratch);
    }
    warena_reset(&w->scratch);
    flush(w);
}

static void wagg_watermark(WOperator *op, int64_t wm)
{
    WindowAggOp *w = (WindowAggOp *)op;
    if (!layout_ok(w)) return;
    advance(w, w->win.proctime ? wexec_now(op->ctx) : wm);
    flush(w);
    wop_emit_watermark(op, wm);
}

static void wagg_end(WOperator *op)
{
    WindowAggOp *w = (WindowAggOp *)op;
    /* processing-time windows still open when the input ends fire now */
    advance(w, INT64_MAX);
    flush(w);
    wop_emit_end(op);
}

static void wagg_metrics(WOperator *op, WOpMetrics *m)
{
    WindowAggOp *w = (WindowAggOp *)op;
    wop_metrics_timed(m, w->be, w->timers);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
}

static void wagg_destroy(WOperator *op)
{
    WindowAggOp *w = (WindowAggOp *)op;
    if (w->L) {
        wacc_ctx_free(&w->ac);
        wacc_layout_free(w->L);
    }
    if (w->be) wstate_backend_free(w->be);
    if (w->timers) wtimers_free(w->timers);
    warena_free(&w->scratch);
    if (w->out) wchunk_free(w->out);
    wsb_free(&w->kbuf);
    wsb_free(&w->abuf);
    wsb_free(&w->kbytes);
    wsb_free(&w->tbuf);
    wsb_free(&w->skey);
    free(w->macc);
    free(w->maccn);
    free(w->prev_slot);
    free(w->slots);
    free(w->pair_row);
    free(w->pair_next);
    free(w->table);
    free(w->keys);
    free(w->ktypes);
    free(w->starts);
    free(w->ends);
    free(w->acc);
    free(w->accn);
    free(w->vals);
    free(w->valn);
    free(w->out_types);
    warena_free(&w->parena);
    free(w);
}

/* processing-time windows fire on the job clock, also between rows */
static void wagg_tick(WOperator *op)
{
    WindowAggOp *w = (WindowAggOp *)op;
    if (!w->win.proctime || !layout_ok(w)) return;
    advance(w, wexec_now(op->ctx));
    flush(w);
}

static const WOpOps WAGG_OPS = {.process = wagg_process, .watermark = wagg_watermark, .tick = wagg_tick,
                                .end_input = wagg_end, .destroy = wagg_destroy,
                                .metrics = wagg_metrics};

WOperator *wop_window_agg_new(WExecCtx *ctx, const WWindowAggSpec *spec)
{
    if (spec->win.kind == WWIN_SESSION && !spec->merge) return wop_session_agg_new(ctx, spec);
    int props = wwin_spec_props(spec);
    if (props > 0 && props != 3 && props != 4) props = 3;   /* rejected by the column check */
    int nout = spec->nkeys + spec->naggs + wwin_ncols(props);
    bool ok = spec->group_window ? wwin_validate(&spec->win, ctx->err)
                                 : wwin_validate_slicing(&spec->win, ctx->err);
    if (!ok) return NULL;
    if (spec->out.ncols != nout || !spec->out.types) {
        werr_set(ctx->err, WEXC_TABLE, "WindowAggregate: output must have %d columns, got %d", nout,
                 spec->out.ncols);
        return NULL;
    }
    if (spec->win.attached && (spec->win.start_col < 0 || spec->win.start_col >= spec->in_ncols ||
                               spec->win.end_col < 0 || spec->win.end_col >= spec->in_ncols)) {
        werr_set(ctx->err, WEXC_TABLE, "WindowAggregate: window columns %d/%d out of range",
                 spec->win.start_col, spec->win.end_col);
        return NULL;
    }
    if (spec->merge) {
        if (spec->win.proctime || spec->win.attached || spec->win.kind == WWIN_SESSION || spec->input_retracts ||
            spec->in_ncols < spec->nkeys + 1 || spec->in_types[spec->in_ncols - 1]->id != WT_BIGINT) {
            werr_set(ctx->err, WEXC_TABLE,
                     "GlobalWindowAggregate: expects insert-only row-time slices ending in a BIGINT slice end");
            return NULL;
        }
        for (int k = 0; k < spec->nkeys; k++)
            if (spec->keys[k] != k) {
                werr_set(ctx->err, WEXC_TABLE, "GlobalWindowAggregate: grouping key %d must be column %d", k, k);
                return NULL;
            }
    } else if (!spec->win.proctime && (spec->win.time_col < 0 || spec->win.time_col >= spec->in_ncols)) {
        werr_set(ctx->err, WEXC_TABLE, "WindowAggregate: time column %d out of range",
                 spec->win.time_col);
        return NULL;
    }
    /* Flink's HOP / CUMULATE windows (slice-shared assigners, the legacy operator's panes) need
       every aggregate function's merge; FIRST_VALUE / LAST_VALUE have none (measured on Flink
       2.3.0: its code generation refuses the job) */
    if ((spec->win.kind == WWIN_HOP || spec->win.kind == WWIN_CUMULATE) && !spec->win.attached &&
        !(spec->merge && spec->slice_is_window) && !spec->input_retracts)
        for (int i = 0; i < spec->naggs; i++) {
            WAggKind k = spec->aggs[i].kind;
            if (k != WAGG_FIRST_VALUE && k != WAGG_LAST_VALUE) continue;
            const char *fn = k == WAGG_FIRST_VALUE ? "FIRST_VALUE" : "LAST_VALUE";
            werr_set(ctx->err, WEXC_VALIDATION,
                     "Could not find an implementation method 'merge' in class "
                     "'org.apache.flink.table.runtime.functions.aggregate.%s' for function '%s' that matches "
                     "the following signature:\nvoid merge(org.apache.flink.table.data.RowData, java.lang.Iterable)",
                     k == WAGG_FIRST_VALUE ? "FirstValueAggFunction" : "LastValueAggFunction", fn);
            return NULL;
        }
    WindowAggOp *w = wcalloc(1, sizeof *w);
    warena_init(&w->parena, 0);
    w->out_types = wmalloc(sizeof *w->out_types * (size_t)nout);
    memcpy(w->out_types, spec->out.types, sizeof *w->out_types * (size_t)nout);
    wop_init(&w->base, &WAGG_OPS, ctx, 1, nout, w->out_types, spec->out.names);
    w->base.name = spec->merge ? "GlobalWindowAggregate" : "WindowAggregate";
    w->in_ncols = spec->in_ncols;
    w->props = props;
    w->nkeys = spec->nkeys;
    w->keys = wmalloc(sizeof *w->keys * (size_t)(spec->nkeys ? spec->nkeys : 1));
    w->ktypes = wmalloc(sizeof *w->ktypes * (size_t)(spec->nkeys ? spec->nkeys : 1));
    for (int k = 0; k < spec->nkeys; k++) {
        w->keys[k] = spec->keys[k];
        w->ktypes[k] = spec->in_types[spec->keys[k]];
    }
    w->naggs = spec->naggs;
    w->win = spec->win;
    w->retracts = spec->input_retracts;
    w->shift = wwin_shift_of(&w->win, ctx->start_ms ? ctx->start_ms : wexec_now(ctx));
    w->max_windows = wwin_max_per_row(&w->win);
    w->starts = wmalloc(sizeof *w->starts * (size_t)w->max_windows);
    w->ends = wmalloc(sizeof *w->ends * (size_t)w->max_windows);
    w->prev_slot = wmalloc(sizeof *w->prev_slot * (size_t)w->max_windows);
    warena_init(&w->scratch, 0);
    wsb_init(&w->kbuf);
    wsb_init(&w->abuf);
    wsb_init(&w->kbytes);
    wsb_init(&w->tbuf);
    w->be = wexec_new_backend(ctx, "WindowAggregate");
    /* state and timers are keyed by key ++ window end: the end is a namespace, the key group is
       the key's (the subtask the exchange sends the key to) */
    wstate_set_namespace_bytes(w->be, sizeof(int64_t));
    w->st = wstate_register(w->be, "window-aggs", WSTATE_VALUE, 0);
    w->timers = wexec_new_timers(ctx, "WindowAggregate");
    wtimers_set_namespace_bytes(w->timers, sizeof(int64_t));
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    w->out = wchunk_new(nout, w->out_types, cap);
    const WType **agg_types = spec->merge ? spec->agg_types : spec->in_types;
    w->L = wacc_layout_new(spec->aggs, spec->naggs, agg_types, spec->input_retracts, w->be,
                           "window-aggs", 0, ctx->err);
    if (!w->L) {
        wop_free(&w->base);
        return NULL;
    }
    if (spec->merge) {
        w->merge = true;
        w->slice_is_window = spec->slice_is_window;
        w->slice_col = spec->in_ncols - 1;
        WSchema ain = {spec->agg_ncols, NULL, spec->agg_types};
        wagg_window_partial_layout(&w->parena, spec->aggs, spec->naggs, &ain, spec->win.kind, &w->P);
        if (spec->nkeys + w->P.ncols + 1 != spec->in_ncols) {
            werr_set(ctx->err, WEXC_TABLE, "GlobalWindowAggregate: input has %d columns, expected %d",
                     spec->in_ncols, spec->nkeys + w->P.ncols + 1);
            wop_free(&w->base);
            return NULL;
        }
    }
    wacc_ctx_init(&w->ac, w->L, &w->scratch);
    w->ac.cast = ctx->cast;
    w->acc = wcalloc((size_t)w->L->nfields, sizeof *w->acc);
    w->accn = wcalloc((size_t)w->L->nfields, 1);
    w->vals = wcalloc((size_t)(spec->naggs ? spec->naggs : 1), sizeof *w->vals);
    w->valn = wcalloc((size_t)(spec->naggs ? spec->naggs : 1), 1);
    /* slices for HOP / CUMULATE windows assigned from time when every accumulator merges (Flink
       needs merge for its SliceSharedAssigner); attached windows are one window per row */
    if ((w->win.kind == WWIN_HOP || w->win.kind == WWIN_CUMULATE) && !w->win.attached &&
        !(w->merge && w->slice_is_window) && wacc_layout_mergeable(w->L)) {
        bool calls_merge = true;
        for (int i = 0; i < spec->naggs; i++)
            if (!wagg_mergeable(&spec->aggs[i], spec->input_retracts) || spec->aggs[i].distinct) calls_merge = false;
        w->sliced = calls_merge;
    }
    if (w->sliced) {
        w->per_window_st = w->st;
        w->st = wstate_register(w->be, "window-slices", WSTATE_VALUE, 0);
        w->slice_ms = wwin_slice_size(&w->win);
        assert(w->slice_ms > 0 && w->win.size_ms % w->slice_ms == 0);
        w->slice_lo = INT64_MAX;
        w->slice_hi = INT64_MIN;
        w->macc = wcalloc((size_t)w->L->nfields, sizeof *w->macc);
        w->maccn = wcalloc((size_t)w->L->nfields, 1);
    }
    wsb_init(&w->skey);
    return &w->base;
}
