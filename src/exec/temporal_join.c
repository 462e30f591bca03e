/*
 * temporal_join.c — event-time temporal join `FOR SYSTEM_TIME AS OF left.rowtime` against a
 * versioned table (Flink TemporalRowTimeJoinOperator + TemporalRowTimeJoinHelper):
 *   - left (probe) rows are kept per join key with an arrival index; right (build) rows are kept
 *     per join key by their row time (a later row with the same time replaces the earlier one),
 *     together with their row kind;
 *   - one event-time timer per key, at the smallest pending time; when the watermark passes it,
 *     every left row with time <= watermark is emitted in arrival order, joined with the right
 *     version of largest time <= the left time if that version is an insert/update-after and the
 *     condition holds (a -U/-D version means "no row then"); LEFT joins pad with NULLs otherwise.
 *     The output row kind is the left row's;
 *   - then right versions older than the newest one at or before the watermark are dropped (the
 *     latest version is always kept), and a timer is set for the oldest left row still pending.
 * A NULL left join key never matches. No state retention (Flink's minRetentionTime) is applied:
 * the spec has no TTL; the state is bounded by the watermark except for the latest versions.
 * State (keyed by the join key): `left` (map index -> row), `next-index` (value), `right`
 * (map time -> row with its kind in the header byte), `timer` (value: registered timer).
 * May call exec/operator, exec/join_inputs, expr/, state/, types/, common/.
 */
#include "windowed.h"
#include "join_inputs.h"
#include "op_rows.h"
#include "../common/sort.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TJSide {
    WJoinInput in;                  /* columns, types, keys (join_inputs.h) */
    int time_col;
} TJSide;

typedef struct TJRow {
    int64_t seq_or_time;
    int64_t time;
    const uint8_t *row;
    size_t len;
} TJRow;

typedef struct TemporalJoinOp {
    WOperator base;
    bool left_outer;
    int nkeys;
    TJSide side[2];
    int L;
    const WType **jtypes;
    WExpr *residual;
    WStateBackend *be;
    WState *left, *next_index, *right, *timer;
    WTimerService *timers;
    WChunk *joined;
    WChunk *out;
    uint8_t sel[1];
    WStrBuf kbuf, rbuf;
    WArena *eval_arena, *work;
} TemporalJoinOp;

static int64_t bin_time(const TJSide *s, const void *row, size_t len)
{
    WDatum v;
    const WType *t = s->in.types[s->time_col];
    bool nn = wrow_get(row, len, s->in.ncols, t, s->time_col, &v);
    return wop_datum_time(t, v, !nn);
}

static int out_add(TemporalJoinOp *j, WRowKind k) { return wop_out_row(&j->base, j->out, k); }

static void flush(TemporalJoinOp *j) { wop_out_flush(&j->base, j->out); }

/* Decode a stored row of side s into joined chunk row 0 at its columns. */
static void decode_into(TemporalJoinOp *j, int s, const uint8_t *row, size_t len)
{
    TJSide *ts = &j->side[s];
    int off = s == 0 ? 0 : j->L;
    wrow_decode_chunk(row, len, ts->in.ncols, ts->in.types, j->joined, 0, off, j->eval_arena, false);
}

static void emit_joined(TemporalJoinOp *j, WRowKind kind, bool pad_right)
{
    int o = out_add(j, kind);
    WArena *a = j->out->arena;
    int n = j->L + j->side[1].in.ncols;
    for (int k = 0; k < n; k++) {
        bool nul = (pad_right && k >= j->L) || j->joined->cols[k].nulls[0];
        j->out->cols[k].nulls[o] = nul;
        j->out->cols[k].data[o] = nul ? (WDatum){0} : wdatum_copy(a, j->jtypes[k], j->joined->cols[k].data[0]);
    }
}

static int cmp_time(const void *a, const void *b)
{
    const TJRow *x = a, *y = b;
    return x->seq_or_time < y->seq_or_time ? -1 : x->seq_or_time > y->seq_or_time;
}

/* Largest right version with time <= t (rights sorted by time), or -1. */
static int latest_right(const TJRow *rights, int n, int64_t t)
{
    int lo = 0, hi = n - 1, best = -1;
    while (lo <= hi) {
        int mid = (int)(((unsigned)lo + (unsigned)hi) >> 1);
        if (rights[mid].time <= t) { best = mid; lo = mid + 1; }
        else hi = mid - 1;
    }
    return best;
}

static void register_timer(TemporalJoinOp *j, int64_t ts)
{
    wvalue_put(j->timer, &ts, sizeof ts);
    wtimers_register(j->timers, ts, j->kbuf.buf, j->kbuf.len, 0);
}

static void register_smallest(TemporalJoinOp *j, int64_t ts)
{
    WBytes v;
    if (wvalue_get(j->timer, &v) != WSL_FOUND || v.len != 8) {
        register_timer(j, ts);
        return;
    }
    int64_t cur;
    memcpy(&cur, v.p, 8);
    if (cur > ts) {
        wtimers_delete(j->timers, cur, j->kbuf.buf, j->kbuf.len, 0);
        register_timer(j, ts);
    }
}

static bool left_key_null(TemporalJoinOp *j)
{
    for (int k = 0; k < j->nkeys; k++)
        if (j->joined->cols[j->side[0].in.keys[k]].nulls[0]) return true;
    return false;
}

/* emitResultAndCleanUpState; returns the oldest unprocessed left time or INT64_MAX. */
static int64_t emit_and_cleanup(TemporalJoinOp *j, int64_t wm)
{
    warena_reset(j->work);
    /* right versions sorted by time */
    size_t nr_cap = wmap_size(j->right);
    TJRow *rights = wa_alloc(j->work, sizeof *rights * (nr_cap ? nr_cap : 1));
    int nr = 0;
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(j->right, &it);
    while (wmap_next(&it, &uk, &uv) && (size_t)nr < nr_cap) {
        rights[nr].time = wkey_get_time(uk.p);
        rights[nr].seq_or_time = rights[nr].time;
        rights[nr].row = wa_memdup(j->work, uv.p, uv.len);
        rights[nr].len = uv.len;
        nr++;
    }
    wqsort(rights, (size_t)nr, sizeof *rights, cmp_time);
    /* triggered left rows in arrival order */
    size_t nl_cap = wmap_size(j->left);
    TJRow *lefts = wa_alloc(j->work, sizeof *lefts * (nl_cap ? nl_cap : 1));
    int nl = 0;
    int64_t last_unprocessed = INT64_MAX;
    wmap_iter(j->left, &it);
    while (wmap_next(&it, &uk, &uv)) {
        int64_t t = bin_time(&j->side[0], uv.p, uv.len);
        if (t <= wm) {
            if ((size_t)nl < nl_cap) {
                lefts[nl].seq_or_time = wkey_get_time(uk.p);
                lefts[nl].time = t;
                lefts[nl].row = wa_memdup(j->work, uv.p, uv.len);
                lefts[nl].len = uv.len;
                nl++;
            }
            wmap_iter_remove(&it);
        } else if (t < last_unprocessed) {
            last_unprocessed = t;
        }
    }
    wqsort(lefts, (size_t)nl, sizeof *lefts, cmp_time);
    for (int i = 0; i < nl && !j->base.ctx->err->set; i++) {
        warena_reset(j->eval_arena);
        j->joined->nrows = 0;
        wchunk_add_row(j->joined, WRK_INSERT);
        decode_into(j, 0, lefts[i].row, lefts[i].len);
        WRowKind kind = wrow_kind(lefts[i].row);
        int ri = latest_right(rights, nr, lefts[i].time);
        bool matched = false;
        if (ri >= 0 && !wrowkind_is_retract(wrow_kind(rights[ri].row)) && !left_key_null(j)) {
            decode_into(j, 1, rights[ri].row, rights[ri].len);
            j->sel[0] = 1;
            if (j->residual) {
                WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast,
                               .now_ms = j->base.ctx->start_ms, .clock = j->base.ctx->clock, .clock_ctx = j->base.ctx->clock_ctx, .err = j->base.ctx->err};
                if (!wexpr_filter(&ec, j->residual, j->joined, j->sel)) return INT64_MAX;
            }
            matched = j->sel[0] != 0;
        }
        if (matched) emit_joined(j, kind, false);
        else if (j->left_outer) emit_joined(j, kind, true);
    }
    /* cleanupExpiredVersionInState: keep the newest version at or before wm and all newer */
    int first_newer = -1;
    for (int i = 0; i < nr; i++)
        if (rights[i].time > wm) { first_newer = i; break; }
    int keep = first_newer < 0 ? nr - 1 : first_newer - 1;
    for (int i = 0; i < keep; i++) {
        uint8_t k[8];
        wkey_put_time(k, rights[i].time);
        wmap_remove(j->right, k, 8);
    }
    return last_unprocessed;
}

static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    TemporalJoinOp *j = ctx;
    (void)ts; (void)ns;
    if (j->base.ctx->err->set) return;
    wstate_set_key(j->be, key, klen);
    wsb_clear(&j->kbuf);
    wsb_appendn(&j->kbuf, key, klen);
    wvalue_clear(j->timer);
    int64_t last = emit_and_cleanup(j, j->base.wm);
    if (last < INT64_MAX) register_timer(j, last);
}

static void tj_process(WOperator *op, int input, const WChunk *in)
{
    TemporalJoinOp *j = (TemporalJoinOp *)op;
    int s = input ? 1 : 0;
    TJSide *ts = &j->side[s];
    for (int r = 0; r < in->nrows; r++) {
        wrow_encode_chunk(&j->kbuf, in, r, j->nkeys, ts->in.keys);
        wstate_set_key(j->be, j->kbuf.buf, j->kbuf.len);
        wrow_encode_chunk(&j->rbuf, in, r, ts->in.ncols, ts->in.all);
        ((uint8_t *)j->rbuf.buf)[0] = in->kinds[r];    /* keep the row kind */
        int64_t t = wop_datum_time(ts->in.types[ts->time_col], in->cols[ts->time_col].data[r],
                               in->cols[ts->time_col].nulls[r]);
        uint8_t uk[8];
        if (s == 0) {
            WBytes v;
            int64_t idx = 0;
            if (wvalue_get(j->next_index, &v) == WSL_FOUND && v.len == 8) memcpy(&idx, v.p, 8);
            int64_t nxt = idx + 1;
            wvalue_put(j->next_index, &nxt, sizeof nxt);
            wkey_put_time(uk, idx);
            wmap_put(j->left, uk, 8, j->rbuf.buf, j->rbuf.len);
        } else {
            wkey_put_time(uk, t);
            wmap_put(j->right, uk, 8, j->rbuf.buf, j->rbuf.len);
        }
        register_smallest(j, t);
    }
}

static void tj_watermark(WOperator *op, int64_t wm)
{
    TemporalJoinOp *j = (TemporalJoinOp *)op;
    wtimers_advance(j->timers, wm, on_timer, j);
    flush(j);
    wop_emit_watermark(op, wm);
}

static void tj_metrics(WOperator *op, WOpMetrics *m)
{
    TemporalJoinOp *j = (TemporalJoinOp *)op;
    wop_metrics_timed(m, j->be, j->timers);
}

static void tj_destroy(WOperator *op)
{
    TemporalJoinOp *j = (TemporalJoinOp *)op;
    wstate_backend_free(j->be);
    wtimers_free(j->timers);
    for (int i = 0; i < 2; i++) wjoin_input_free(&j->side[i].in);
    wchunk_free(j->joined);
    wchunk_free(j->out);
    free(j->jtypes);
    wsb_free(&j->kbuf);
    wsb_free(&j->rbuf);
    warena_delete(j->eval_arena);
    warena_delete(j->work);
    free(j);
}

static const WOpOps TJ_OPS = {.process = tj_process, .watermark = tj_watermark,
                              .destroy = tj_destroy, .metrics = tj_metrics};

WOperator *wop_temporal_join_new(WExecCtx *ctx, const WTemporalJoinSpec *spec)
{
    TemporalJoinOp *j = wcalloc(1, sizeof *j);
    j->left_outer = spec->left_outer;
    j->nkeys = spec->nkeys;
    j->L = spec->left_ncols;
    j->side[0].time_col = spec->left_time_col;
    j->side[1].time_col = spec->right_time_col;
    j->jtypes = wjoin_inputs_init(&j->side[0].in, &j->side[1].in, spec->nkeys, spec->left_ncols,
                                  spec->left_types, spec->left_keys, spec->right_ncols, spec->right_types,
                                  spec->right_keys);
    int nj = spec->left_ncols + spec->right_ncols;
    int out_n = spec->out.ncols ? spec->out.ncols : nj;
    const WType **out_t = spec->out.types ? spec->out.types : j->jtypes;
    wop_init(&j->base, &TJ_OPS, ctx, 2, out_n, out_t, spec->out.names);
    j->residual = spec->residual;
    j->be = wexec_new_backend(ctx, j->base.name ? j->base.name : "TemporalJoin");
    j->next_index = wstate_register(j->be, "next-index", WSTATE_VALUE, 0);
    j->left = wstate_register(j->be, "left", WSTATE_MAP, 0);
    j->right = wstate_register(j->be, "right", WSTATE_MAP, 0);
    j->timer = wstate_register(j->be, "timer", WSTATE_VALUE, 0);
    j->timers = wexec_new_timers(ctx, "TemporalJoin");
    j->joined = wchunk_new(nj, j->jtypes, 1);
    j->out = wchunk_new(out_n, out_t, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    wsb_init(&j->kbuf);
    wsb_init(&j->rbuf);
    j->eval_arena = warena_new(0);
    j->work = warena_new(0);
    if (spec->left_time_col < 0 || spec->left_time_col >= spec->left_ncols ||
        spec->right_time_col < 0 || spec->right_time_col >= spec->right_ncols)
        werr_set(ctx->err, WEXC_TABLE, "TemporalJoin: time column index out of range");
    return &j->base;
}
