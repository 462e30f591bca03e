/*
 * interval_join.c — time-interval join (Flink TimeIntervalJoin with RowTimeIntervalJoin /
 * ProcTimeIntervalJoin, KeyedCoProcessOperatorWithWatermarkDelay):
 *   left.time - right.time in [lower, upper] (a strict bound moves by 1 ms, as Flink's planner
 *   does), on equi-keys (a NULL key never matches) and the residual condition; INNER / LEFT /
 *   RIGHT / FULL. Each side caches its rows per (join key, time) with an "emitted" flag; a row
 *   joins the other side's cached rows in its interval when it arrives, and is cached itself while
 *   the other side's operator time (the watermark, or the clock for processing time) can still
 *   bring partners. Cleanup timers (row time + relative size + (left size + right size) / 2 + 1)
 *   remove expired rows; an outer side's rows that never joined are emitted NULL-padded then (or
 *   at once, if they arrive too late to be cached). Like Flink, the expiration times used to skip
 *   cache scans are operator fields shared by all keys, and late rows are not dropped: they still
 *   join what is cached. Event-time output watermarks are held back by max(-lower, upper).
 *   A negative interval (lower > upper) joins nothing: Flink's plan then only pads the outer
 *   side(s) and drops the rest, which this operator reproduces.
 * State (keyed by the join key): IntervalJoinLeftCache / IntervalJoinRightCache maps
 * time -> list of (emitted flag, binary row); IntervalJoinLeftTimerState /
 * IntervalJoinRightTimerState value states (cleanup time of the other side's cache).
 * May call exec/operator, exec/join_inputs, expr/, state/, types/, common/.
 */
#include "windowed.h"
#include "join_inputs.h"
#include "op_rows.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define WSUB(a, b) ((int64_t)((uint64_t)(a) - (uint64_t)(b)))

typedef struct IJSide {
    WJoinInput in;                  /* columns, types, keys (join_inputs.h) */
    int time_col;
    bool outer;                 /* this side is padded when unmatched */
    WState *cache;
    WState *timer_state;        /* timer that cleans the OTHER side's cache (Flink naming) */
    int64_t expiration;         /* Flink's left/rightExpirationTime */
    int64_t op_time;            /* Flink's left/rightOperatorTime */
} IJSide;

typedef struct IntervalJoinOp {
    WOperator base;
    WJoinKind kind;
    int nkeys;
    IJSide side[2];
    int L;
    const WType **jtypes;
    WExpr *residual;
    bool proctime;
    bool negative;              /* lower > upper: no join at all */
    int64_t left_rel, right_rel, min_cleanup, lateness;
    int64_t wm_delay;
    WStateBackend *be;
    WTimerService *timers;
    WChunk *joined;
    WChunk *out;
    uint8_t *sel;
    WStrBuf kbuf, rbuf, vbuf;
    WArena *eval_arena, *work;
    int64_t last_proc;          /* processing time the timers were advanced to */
} IntervalJoinOp;

typedef struct IJEntry {
    int64_t time;
    uint8_t *val;               /* mutable copy: [u32 len][u8 flag][row] ... */
    size_t len;
} IJEntry;

static int out_add(IntervalJoinOp *j) { return wop_out_row(&j->base, j->out, WRK_INSERT); }

static void flush(IntervalJoinOp *j) { wop_out_flush(&j->base, j->out); }

/* ---- emission ---- */

static void emit_joined(IntervalJoinOp *j, int jr)
{
    int o = out_add(j);
    WArena *a = j->out->arena;
    int n = j->L + j->side[1].in.ncols;
    for (int k = 0; k < n; k++) {
        bool nul = j->joined->cols[k].nulls[jr];
        j->out->cols[k].nulls[o] = nul;
        j->out->cols[k].data[o] = nul ? (WDatum){0} : wdatum_copy(a, j->jtypes[k], j->joined->cols[k].data[jr]);
    }
}

/* Row of side s from a chunk, padded with NULLs for the other side. */
static void emit_padded_chunk(IntervalJoinOp *j, int s, const WChunk *c, int r)
{
    int o = out_add(j);
    WArena *a = j->out->arena;
    int off = s == 0 ? 0 : j->L, ooff = s == 0 ? j->L : 0;
    IJSide *is = &j->side[s], *os = &j->side[1 - s];
    for (int k = 0; k < is->in.ncols; k++) {
        bool nul = c->cols[k].nulls[r];
        j->out->cols[off + k].nulls[o] = nul;
        j->out->cols[off + k].data[o] = nul ? (WDatum){0} : wdatum_copy(a, is->in.types[k], c->cols[k].data[r]);
    }
    for (int k = 0; k < os->in.ncols; k++) j->out->cols[ooff + k].nulls[o] = 1;
}

/* Stored binary row of side s, padded. */
static void emit_padded_bin(IntervalJoinOp *j, int s, const void *row, size_t len)
{
    int o = out_add(j);
    int off = s == 0 ? 0 : j->L, ooff = s == 0 ? j->L : 0;
    IJSide *is = &j->side[s], *os = &j->side[1 - s];
    wrow_decode_chunk(row, len, is->in.ncols, is->in.types, j->out, o, off, j->out->arena, true);
    for (int k = 0; k < os->in.ncols; k++) j->out->cols[ooff + k].nulls[o] = 1;
}

/* ---- joining an input row with one cache entry ---- */

static bool key_has_null(IntervalJoinOp *j, int s, const WChunk *c, int r)
{
    for (int k = 0; k < j->nkeys; k++)
        if (c->cols[j->side[s].in.keys[k]].nulls[r]) return true;
    return false;
}

/* Join input row r of side `in` (chunk c) with the records of entry e (other side). Emits the
   joined rows; sets *emitted when any was emitted; marks the entry's records as joined when
   `mark` (the other side is outer). Returns false on an evaluation error. */
static bool join_entry(IntervalJoinOp *j, int in, const WChunk *c, int r, bool null_key, IJEntry *e,
                       bool mark, bool *emitted)
{
    int ot = 1 - in;
    IJSide *is = &j->side[in], *os = &j->side[ot];
    int ioff = in == 0 ? 0 : j->L, ooff = ot == 0 ? 0 : j->L;
    if (null_key) return true;
    uint8_t *p = e->val, *end = e->val + e->len;
    while (p < end) {
        /* one batch of up to cap records */
        WChunk *jc = j->joined;
        jc->nrows = 0;
        uint8_t *flags[WCHUNK_CAP];
        int cap = jc->cap < WCHUNK_CAP ? jc->cap : WCHUNK_CAP;
        warena_reset(j->eval_arena);
        while (p < end && jc->nrows < cap) {
            uint32_t len = wload_u32(p);
            const uint8_t *row = p + 5;
            int jr = wchunk_add_row(jc, WRK_INSERT);
            flags[jr] = p + 4;
            wrow_decode_chunk(row, len, os->in.ncols, os->in.types, jc, jr, ooff, j->eval_arena, false);
            for (int k = 0; k < is->in.ncols; k++) {
                jc->cols[ioff + k].data[jr] = c->cols[k].data[r];
                jc->cols[ioff + k].nulls[jr] = c->cols[k].nulls[r];
            }
            j->sel[jr] = 1;
            p += 5 + len;
        }
        if (j->residual) {
            WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast,
                           .now_ms = j->base.ctx->start_ms, .clock = j->base.ctx->clock, .clock_ctx = j->base.ctx->clock_ctx, .err = j->base.ctx->err};
            if (!wexpr_filter(&ec, j->residual, jc, j->sel) || j->base.ctx->err->set) return false;
        }
        for (int i = 0; i < jc->nrows; i++) {
            if (!j->sel[i]) continue;
            emit_joined(j, i);
            *emitted = true;
            if (mark) *flags[i] = 1;
        }
    }
    return true;
}

/* Emit the never-joined records of entry e (side s) padded. */
static void pad_entry(IntervalJoinOp *j, int s, const uint8_t *val, size_t vlen)
{
    for (const uint8_t *p = val, *end = val + vlen; p < end; p += 5 + wload_u32(p))
        if (!p[4]) emit_padded_bin(j, s, p + 5, wload_u32(p));
}

/* Copy the current key's entries of a cache into the work arena. */
static int collect(IntervalJoinOp *j, WState *cache, IJEntry **out)
{
    size_t n = wmap_size(cache);
    IJEntry *ents = wa_alloc(j->work, sizeof *ents * (n ? n : 1));
    int k = 0;
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(cache, &it);
    while (wmap_next(&it, &uk, &uv) && (size_t)k < n) {
        ents[k].time = wkey_get_time(uk.p);
        ents[k].val = wa_memdup(j->work, uv.p, uv.len);
        ents[k].len = uv.len;
        k++;
    }
    *out = ents;
    return k;
}

static int64_t cal_expiration(IntervalJoinOp *j, int64_t op_time, int64_t rel)
{
    if (op_time < INT64_MAX) return WSUB(WSUB(WSUB(op_time, rel), j->lateness), 1);
    return INT64_MAX;
}

static void update_operator_time(IntervalJoinOp *j)
{
    int64_t t;
    if (j->proctime) t = wexec_now(j->base.ctx);
    else t = j->base.wm > 0 ? j->base.wm : 0;
    j->side[0].op_time = t;
    j->side[1].op_time = t;
}

/* Flink's registerCleanUpTimer(ctx, rowTime, leftRow). */
static void register_cleanup(IntervalJoinOp *j, int64_t row_time, bool left_row)
{
    int64_t rel = left_row ? j->left_rel : j->right_rel;
    int64_t t = WADD(WADD(WADD(WADD(row_time, rel), j->min_cleanup), j->lateness), 1);
    wtimers_register(j->timers, t, j->kbuf.buf, j->kbuf.len, 0);
    /* a left row's timer cleans the left cache; Flink keeps it in rightTimerState */
    WState *st = left_row ? j->side[1].timer_state : j->side[0].timer_state;
    wvalue_put(st, &t, sizeof t);
}

static void process_row(IntervalJoinOp *j, int in, const WChunk *c, int r)
{
    int ot = 1 - in;
    IJSide *is = &j->side[in], *os = &j->side[ot];
    /* For a left row: rightQualified bounds use rightRelativeSize below / leftRelativeSize above;
       symmetric for a right row. */
    int64_t rel_below = in == 0 ? j->right_rel : j->left_rel;
    int64_t rel_above = in == 0 ? j->left_rel : j->right_rel;
    int64_t t = j->proctime ? is->op_time
                            : wop_datum_time(is->in.types[is->time_col], c->cols[is->time_col].data[r],
                                         c->cols[is->time_col].nulls[r]);
    int64_t lo = WSUB(t, rel_below), hi = WADD(t, rel_above);
    bool emitted = false;
    bool null_key = key_has_null(j, in, c, r);
    warena_reset(j->work);
    if (os->expiration < hi) {
        os->expiration = cal_expiration(j, is->op_time, rel_below);
        IJEntry *ents;
        int n = collect(j, os->cache, &ents);
        for (int i = 0; i < n; i++) {
            IJEntry *e = &ents[i];
            uint8_t uk[8];
            wkey_put_time(uk, e->time);
            bool updated = false;
            if (e->time >= lo && e->time <= hi) {
                bool before = false;
                uint8_t *snapshot = NULL;
                if (os->outer) snapshot = wa_memdup(j->work, e->val, e->len);
                if (!join_entry(j, in, c, r, null_key, e, os->outer, &before)) return;
                if (before) emitted = true;
                if (os->outer && memcmp(snapshot, e->val, e->len) != 0) updated = true;
            }
            if (e->time <= os->expiration) {
                if (os->outer) pad_entry(j, ot, e->val, e->len);
                wmap_remove(os->cache, uk, 8);
            } else if (updated) {
                wmap_put(os->cache, uk, 8, e->val, e->len);
            }
        }
    }
    if (os->op_time < hi) {
        uint8_t uk[8];
        wkey_put_time(uk, t);
        wrow_encode_chunk(&j->rbuf, c, r, is->in.ncols, is->in.all);
        WBytes old;
        wsb_clear(&j->vbuf);
        if (wmap_get(is->cache, uk, 8, &old) == WSL_FOUND) wsb_appendn(&j->vbuf, old.p, old.len);
        uint32_t len = (uint32_t)j->rbuf.len;
        wsb_appendn(&j->vbuf, (const char *)&len, 4);
        wsb_putc(&j->vbuf, emitted ? 1 : 0);
        wsb_appendn(&j->vbuf, j->rbuf.buf, j->rbuf.len);
        wmap_put(is->cache, uk, 8, j->vbuf.buf, j->vbuf.len);
        WBytes tv;
        /* the timer of this side's cache lives in the other side's timer state */
        if (wvalue_get(os->timer_state, &tv) != WSL_FOUND) register_cleanup(j, t, in == 0);
    } else if (!emitted && is->outer) {
        emit_padded_chunk(j, in, c, r);
    }
}

/* Flink's removeExpiredRows for the cache of side s (its timer state is the other side's). */
static void remove_expired(IntervalJoinOp *j, int s, int64_t expiration)
{
    IJSide *ss = &j->side[s];
    WState *timer_state = j->side[1 - s].timer_state;
    warena_reset(j->work);
    IJEntry *ents;
    int n = collect(j, ss->cache, &ents);
    int64_t earliest = -1;
    for (int i = 0; i < n; i++) {
        IJEntry *e = &ents[i];
        if (e->time <= expiration) {
            if (ss->outer) pad_entry(j, s, e->val, e->len);
            uint8_t uk[8];
            wkey_put_time(uk, e->time);
            wmap_remove(ss->cache, uk, 8);
        } else if (e->time < earliest || earliest < 0) {
            earliest = e->time;
        }
    }
    if (earliest > 0) {
        register_cleanup(j, earliest, s == 0);
    } else {
        wvalue_clear(timer_state);
        wmap_clear(ss->cache);
    }
}

static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    IntervalJoinOp *j = ctx;
    (void)ns;
    if (j->base.ctx->err->set) return;
    wstate_set_key(j->be, key, klen);
    wsb_clear(&j->kbuf);
    wsb_appendn(&j->kbuf, key, klen);
    update_operator_time(j);
    WBytes v;
    int64_t t;
    /* leftTimerState: cleans the right cache */
    if (wvalue_get(j->side[0].timer_state, &v) == WSL_FOUND && v.len == 8) {
        memcpy(&t, v.p, 8);
        if (t == ts) {
            j->side[1].expiration = cal_expiration(j, j->side[0].op_time, j->right_rel);
            remove_expired(j, 1, j->side[1].expiration);
        }
    }
    if (wvalue_get(j->side[1].timer_state, &v) == WSL_FOUND && v.len == 8) {
        memcpy(&t, v.p, 8);
        if (t == ts) {
            j->side[0].expiration = cal_expiration(j, j->side[1].op_time, j->left_rel);
            remove_expired(j, 0, j->side[0].expiration);
        }
    }
}

static void advance_proc(IntervalJoinOp *j)
{
    int64_t now = wexec_now(j->base.ctx);
    if (now <= j->last_proc) return;
    j->last_proc = now;
    wtimers_advance(j->timers, now, on_timer, j);
    flush(j);
}

static void ij_process(WOperator *op, int input, const WChunk *in)
{
    IntervalJoinOp *j = (IntervalJoinOp *)op;
    int s = input ? 1 : 0;
    if (j->negative) {
        if (j->side[s].outer)
            for (int r = 0; r < in->nrows; r++) emit_padded_chunk(j, s, in, r);
        flush(j);
        return;
    }
    if (j->proctime) advance_proc(j);
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        wrow_encode_chunk(&j->kbuf, in, r, j->nkeys, j->side[s].in.keys);
        wstate_set_key(j->be, j->kbuf.buf, j->kbuf.len);
        update_operator_time(j);
        process_row(j, s, in, r);
    }
    flush(j);
}

static void ij_watermark(WOperator *op, int64_t wm)
{
    IntervalJoinOp *j = (IntervalJoinOp *)op;
    if (j->negative) {
        wop_emit_watermark(op, wm);
        return;
    }
    if (j->proctime) {
        advance_proc(j);
        wop_emit_watermark(op, wm);
        return;
    }
    wtimers_advance(j->timers, wm, on_timer, j);
    flush(j);
    if (j->wm_delay > 0 && wm != WWM_MAX) wop_emit_watermark(op, WSUB(wm, j->wm_delay));
    else wop_emit_watermark(op, wm);
}

static void ij_metrics(WOperator *op, WOpMetrics *m)
{
    IntervalJoinOp *j = (IntervalJoinOp *)op;
    wop_metrics_timed(m, j->be, j->timers);
}

static void ij_destroy(WOperator *op)
{
    IntervalJoinOp *j = (IntervalJoinOp *)op;
    wstate_backend_free(j->be);
    wtimers_free(j->timers);
    for (int i = 0; i < 2; i++) wjoin_input_free(&j->side[i].in);
    wchunk_free(j->joined);
    wchunk_free(j->out);
    free(j->jtypes);
    free(j->sel);
    wsb_free(&j->kbuf);
    wsb_free(&j->rbuf);
    wsb_free(&j->vbuf);
    warena_delete(j->eval_arena);
    warena_delete(j->work);
    free(j);
}

/* processing-time state cleanup on the job clock, also between rows */
static void ij_tick(WOperator *op)
{
    IntervalJoinOp *j = (IntervalJoinOp *)op;
    if (j->proctime) advance_proc(j);
}

static const WOpOps IJ_OPS = {.process = ij_process, .watermark = ij_watermark, .tick = ij_tick,
                              .destroy = ij_destroy, .metrics = ij_metrics};

static void side_init(IJSide *s, int time_col, bool outer)
{
    s->time_col = time_col;
    s->outer = outer;
    s->expiration = 0;
    s->op_time = 0;
}

WOperator *wop_interval_join_new(WExecCtx *ctx, const WIntervalJoinSpec *spec)
{
    IntervalJoinOp *j = wcalloc(1, sizeof *j);
    j->kind = spec->kind;
    j->nkeys = spec->nkeys;
    j->L = spec->left_ncols;
    bool lo = spec->kind == WJK_LEFT || spec->kind == WJK_FULL;
    bool ro = spec->kind == WJK_RIGHT || spec->kind == WJK_FULL;
    side_init(&j->side[0], spec->left_time_col, lo);
    side_init(&j->side[1], spec->right_time_col, ro);
    j->jtypes = wjoin_inputs_init(&j->side[0].in, &j->side[1].in, spec->nkeys, spec->left_ncols,
                                  spec->left_types, spec->left_keys, spec->right_ncols, spec->right_types,
                                  spec->right_keys);
    int nj = spec->left_ncols + spec->right_ncols;
    int out_n = spec->out.ncols ? spec->out.ncols : nj;
    const WType **out_t = spec->out.types ? spec->out.types : j->jtypes;
    wop_init(&j->base, &IJ_OPS, ctx, 2, out_n, out_t, spec->out.names);
    j->residual = spec->residual;
    j->proctime = spec->proctime;
    /* IntervalJoinUtil: '<' / '>' bounds move by one millisecond. */
    int64_t lower = spec->lower_strict ? WADD(spec->lower_ms, 1) : spec->lower_ms;
    int64_t upper = spec->upper_strict ? WSUB(spec->upper_ms, 1) : spec->upper_ms;
    j->negative = WSUB(upper, lower) < 0;
    j->left_rel = WSUB(0, lower);
    j->right_rel = upper;
    j->min_cleanup = (int64_t)(((__int128)j->left_rel + j->right_rel) / 2);
    if (j->min_cleanup < 0) j->min_cleanup = 0;
    j->lateness = 0;
    int64_t d = j->left_rel > j->right_rel ? j->left_rel : j->right_rel;
    j->wm_delay = spec->proctime ? 0 : d + j->lateness;
    if (j->wm_delay < 0) j->wm_delay = 0;   /* Flink requires a non-negative delay */
    j->last_proc = INT64_MIN;
    j->be = wexec_new_backend(ctx, j->base.name ? j->base.name : "IntervalJoin");
    j->side[0].cache = wstate_register(j->be, "IntervalJoinLeftCache", WSTATE_MAP, 0);
    j->side[1].cache = wstate_register(j->be, "IntervalJoinRightCache", WSTATE_MAP, 0);
    j->side[0].timer_state = wstate_register(j->be, "IntervalJoinLeftTimerState", WSTATE_VALUE, 0);
    j->side[1].timer_state = wstate_register(j->be, "IntervalJoinRightTimerState", WSTATE_VALUE, 0);
    j->timers = wexec_new_timers(ctx, "IntervalJoin");
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    if (cap > WCHUNK_CAP) cap = WCHUNK_CAP;
    j->joined = wchunk_new(nj, j->jtypes, cap);
    j->out = wchunk_new(out_n, out_t, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    j->sel = wmalloc((size_t)cap);
    wsb_init(&j->kbuf);
    wsb_init(&j->rbuf);
    wsb_init(&j->vbuf);
    j->eval_arena = warena_new(0);
    j->work = warena_new(0);
    if (spec->kind == WJK_SEMI || spec->kind == WJK_ANTI)
        werr_set(ctx->err, WEXC_TABLE,
                 "Interval Join: %s Join between stream and stream is not supported yet.\n"
                 "please re-check interval join statement according to description above.",
                 spec->kind == WJK_SEMI ? "SEMI" : "ANTI");
    else if (!spec->proctime &&
             (spec->left_time_col < 0 || spec->left_time_col >= spec->left_ncols ||
              spec->right_time_col < 0 || spec->right_time_col >= spec->right_ncols))
        werr_set(ctx->err, WEXC_TABLE, "IntervalJoin: time column index out of range");
    return &j->base;
}
