/*
 * window_join.c — WindowJoin of two windowed inputs (Flink WindowJoinOperator / WindowJoinHelper):
 * rows of each side are buffered per (join key, window_end) and joined when the watermark passes
 * window_end - 1; then both buffers of that window are cleared. Output rows are +I: INNER joined
 * pairs; LEFT/RIGHT/FULL add NULL-padded rows for records without a match (FULL pads unmatched
 * right records after the left ones); SEMI/ANTI emit left records with / without a match.
 * Rows whose window already fired are late: dropped and counted (late_dropped; per side in
 * left_late / right_late, Flink's left/rightNumLateRecordsDropped). -U/-D input fails the job as
 * in Flink. A NULL join key never matches ('=' semantics). The residual condition is evaluated
 * over (left ++ right) columns a chunk of candidate pairs at a time.
 * State: `left-records` / `right-records` lists (as Flink's WindowListState) under the join key
 * ++ window_end (8 bytes, big-endian: the backend's namespace bytes, so that key groups are the
 * join key's): a window's binary rows in arrival order, an append per row and one read when the
 * window fires; timers at window_end - 1 with the window end as namespace.
 * May call exec/operator, exec/join_inputs, expr/, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "windowed.h"
#include "join_inputs.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct WJSide {
    WJoinInput in;                  /* columns, types, keys (join_inputs.h) */
    int end_col;
    WState *st;
    WChunk *dec;                /* decoded records of one window */
    int64_t late;
} WJSide;

typedef struct WinJoinOp {
    WOperator base;
    WJoinKind kind;
    int nkeys;
    WJSide side[2];
    int L;                      /* left column count */
    const WType **jtypes;       /* left ++ right */
    WExpr *residual;
    bool proctime;
    WStateBackend *be;
    WTimerService *timers;
    WChunk *joined;             /* candidate pairs */
    WChunk *out;
    uint8_t *sel;
    uint8_t *rmatched;          /* FULL/RIGHT: right records that matched */
    int rcap;
    WStrBuf kbuf, rbuf, skey;       /* join key, record, state key (join key ++ window end) */
    WArena *eval_arena, *dec_arena;
    int64_t progress;
} WinJoinOp;

static int out_add(WinJoinOp *j) { return wop_out_row(&j->base, j->out, WRK_INSERT); }

static void flush(WinJoinOp *j) { wop_out_flush(&j->base, j->out); }

/* Output row: left record lr (or NULLs when lr < 0) ++ right record rr (or NULLs when rr < 0);
   SEMI/ANTI: the left record alone. */
static void emit_pair(WinJoinOp *j, int lr, int rr)
{
    int o = out_add(j);
    WArena *a = j->out->arena;
    WJSide *ls = &j->side[0], *rs = &j->side[1];
    for (int k = 0; k < ls->in.ncols; k++) {
        bool nul = lr < 0 || ls->dec->cols[k].nulls[lr];
        j->out->cols[k].nulls[o] = nul;
        j->out->cols[k].data[o] = nul ? (WDatum){0} : wdatum_copy(a, ls->in.types[k], ls->dec->cols[k].data[lr]);
    }
    if (j->kind == WJK_SEMI || j->kind == WJK_ANTI) return;
    for (int k = 0; k < rs->in.ncols; k++) {
        bool nul = rr < 0 || rs->dec->cols[k].nulls[rr];
        j->out->cols[j->L + k].nulls[o] = nul;
        j->out->cols[j->L + k].data[o] =
            nul ? (WDatum){0} : wdatum_copy(a, rs->in.types[k], rs->dec->cols[k].data[rr]);
    }
}

/* Makes room for n rows in side s's dec chunk and empties it. */
static void dec_reset(WJSide *s, int n)
{
    if (!s->dec || s->dec->cap < n) {
        if (s->dec) wchunk_free(s->dec);
        s->dec = wchunk_new(s->in.ncols, s->in.types, n > 64 ? n : 64);
    }
    s->dec->nrows = 0;
}

/* Decodes binary row (p, len) into a new row of s->dec (values copied into the decode arena: the
   state bytes are gone once the window is removed). */
static void decode_row(WinJoinOp *j, WJSide *s, const uint8_t *p, size_t len)
{
    assert(s->dec && s->dec->nrows < s->dec->cap);
    int o = wchunk_add_row(s->dec, WRK_INSERT);
    wrow_decode_chunk(p, len, s->in.ncols, s->in.types, s->dec, o, 0, j->dec_arena, true);
}

static bool key_has_null(WinJoinOp *j, int lr)
{
    WJSide *ls = &j->side[0];
    for (int k = 0; k < j->nkeys; k++)
        if (ls->dec->cols[ls->in.keys[k]].nulls[lr]) return true;
    return false;
}

/* Fills j->joined with the m (left, right) pairs that follow pair (l, r) in left-major order
   (right records [r, nr) of left record l, then every right record of l + 1, ...) and evaluates
   the condition over them into sel[i]: a pair whose left join key has a NULL is not evaluated
   and never matches. */
static bool eval_pairs(WinJoinOp *j, int l, int r, int nr, int m)
{
    WJSide *ls = &j->side[0], *rs = &j->side[1];
    WChunk *jc = j->joined;
    jc->nrows = 0;
    bool null_key = key_has_null(j, l), any = false;
    for (int i = 0; i < m; i++) {
        j->sel[i] = !null_key;
        any |= !null_key;
        if (j->residual) {
            int jr = wchunk_add_row(jc, WRK_INSERT);
            for (int k = 0; k < ls->in.ncols; k++) {
                jc->cols[k].data[jr] = ls->dec->cols[k].data[l];
                jc->cols[k].nulls[jr] = ls->dec->cols[k].nulls[l];
            }
            for (int k = 0; k < rs->in.ncols; k++) {
                jc->cols[j->L + k].data[jr] = rs->dec->cols[k].data[r];
                jc->cols[j->L + k].nulls[jr] = rs->dec->cols[k].nulls[r];
            }
        }
        if (++r == nr && i + 1 < m) {
            r = 0;
            null_key = key_has_null(j, ++l);
        }
    }
    if (!any || !j->residual) return true;
    warena_reset(j->eval_arena);
    WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast,
                   .now_ms = j->base.ctx->start_ms, .err = j->base.ctx->err};
    if (!wexpr_filter(&ec, j->residual, jc, j->sel)) return false;
    return !j->base.ctx->err->set;
}

static void do_join(WinJoinOp *j, int nl, int nr)
{
    bool semi = j->kind == WJK_SEMI, anti = j->kind == WJK_ANTI;
    bool pad_left = j->kind == WJK_LEFT || j->kind == WJK_FULL;
    bool pad_right = j->kind == WJK_RIGHT || j->kind == WJK_FULL;
    int cap = j->joined->cap;
    if (nl == 0) {
        if (pad_right) for (int r = 0; r < nr; r++) emit_pair(j, -1, r);
        return;
    }
    if (nr == 0) {
        if (pad_left || anti) for (int l = 0; l < nl; l++) emit_pair(j, l, -1);
        return;
    }
    if (semi || anti) {
        /* a left record's pairs up to its first match (Flink stops there) */
        for (int l = 0; l < nl; l++) {
            bool matched = false;
            for (int from = 0; from < nr && !matched; from += cap) {
                int m = nr - from < cap ? nr - from : cap;
                if (!eval_pairs(j, l, from, nr, m)) return;
                for (int i = 0; i < m && !matched; i++) matched = j->sel[i];
            }
            if (matched == semi) emit_pair(j, l, -1);
        }
        return;
    }
    if (pad_right) {
        if (j->rcap < nr) {
            free(j->rmatched);
            j->rmatched = wmalloc((size_t)nr);
            j->rcap = nr;
        }
        memset(j->rmatched, 0, (size_t)nr);
    }
    /* every pair, left-major as Flink's nested loop, a chunk of pairs at a time whatever the
       sides' sizes (a window's one MAX row against its thousands of counts: one evaluation per
       chunk, not one per left record) */
    int64_t left = (int64_t)nl * nr;
    int l = 0, r = 0;
    bool matched = false;
    while (left > 0) {
        int m = left < cap ? (int)left : cap;
        if (!eval_pairs(j, l, r, nr, m)) return;
        for (int i = 0; i < m; i++) {
            if (j->sel[i]) {
                matched = true;
                emit_pair(j, l, r);
                if (pad_right) j->rmatched[r] = 1;
            }
            if (++r == nr) {
                if (pad_left && !matched) emit_pair(j, l, -1);
                l++, r = 0, matched = false;
            }
        }
        left -= m;
    }
    if (pad_right)
        for (int i = 0; i < nr; i++)
            if (!j->rmatched[i]) emit_pair(j, -1, i);
}

/* Flink's RightOuterWindowJoinProcessor iterates right records first; the output multiset is the
   same as the left-major loop above, only the order differs. */

/* The state key of join key (key, klen) and the window ending at wend (the module comment). */
static void set_window_key(WinJoinOp *j, const void *key, size_t klen, int64_t wend)
{
    uint8_t ns[8];
    wkey_put_time(ns, wend);
    wsb_clear(&j->skey);
    wsb_appendn(&j->skey, key, klen);
    wsb_appendn(&j->skey, (const char *)ns, 8);
    wstate_set_key(j->be, j->skey.buf, j->skey.len);
}

/* Whether the state key set last is that of join key (key, klen) and the window ending at wend. */
static bool same_window_key(const WinJoinOp *j, const void *key, size_t klen, int64_t wend)
{
    uint8_t ns[8];
    wkey_put_time(ns, wend);
    return j->skey.len == klen + 8 && memcmp(j->skey.buf, key, klen) == 0 && memcmp(j->skey.buf + klen, ns, 8) == 0;
}

/* Decodes one side's rows of the current window (the state key set) into s->dec and removes them
   from state. */
static int take_window(WinJoinOp *j, WJSide *s)
{
    const WBytes *items;
    int n = wlist_get(s->st, &items, NULL);
    if (n <= 0) return 0;
    dec_reset(s, n);
    for (int i = 0; i < n; i++) decode_row(j, s, items[i].p, items[i].len);     /* straight from the state bytes */
    wlist_clear(s->st);
    return s->dec->nrows;
}

static void fire(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    WinJoinOp *j = ctx;
    (void)ts;
    if (j->base.ctx->err->set) return;
    int64_t t0 = wop_firing_begin(&j->base);
    set_window_key(j, key, klen, ns);
    warena_reset(j->dec_arena);
    int nl = take_window(j, &j->side[0]);
    int nr = take_window(j, &j->side[1]);
    do_join(j, nl, nr);
    wop_firing_end(&j->base, t0, nl + nr, j->out, j->out->nrows - 1);
}

static void advance(WinJoinOp *j, int64_t progress)
{
    if (progress <= j->progress) return;
    j->progress = progress;
    wtimers_advance(j->timers, progress, fire, j);
    flush(j);
}

static void wj_process(WOperator *op, int input, const WChunk *in)
{
    WinJoinOp *j = (WinJoinOp *)op;
    WJSide *s = &j->side[input ? 1 : 0];
    if (j->proctime) advance(j, wexec_now(op->ctx));
    /* the state key and timer of the previous row of this call: a row of the same join key and
       window (rows of a window come together) appends without setting them again */
    bool same_window_ok = false;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        int64_t wend = wop_datum_time(s->in.types[s->end_col], in->cols[s->end_col].data[r],
                                  in->cols[s->end_col].nulls[r]);
        if (wend != INT64_MAX && j->progress >= wend - 1) {
            s->late++;
            wop_late_row(op, input, in, r, winsight_lateness(j->progress, wend - 1));
            continue;
        }
        if (wrowkind_is_retract(k)) {
            flush(j);
            werr_set(op->ctx->err, WEXC_UNSUPPORTED,
                     "This is a bug and should not happen. Please file an issue.");
            return;
        }
        wrow_encode_chunk(&j->kbuf, in, r, j->nkeys, s->in.keys);
        bool same = same_window_ok && same_window_key(j, j->kbuf.buf, j->kbuf.len, wend);
        if (!same) set_window_key(j, j->kbuf.buf, j->kbuf.len, wend);
        wrow_encode_chunk(&j->rbuf, in, r, s->in.ncols, s->in.all);
        wlist_add(s->st, j->rbuf.buf, j->rbuf.len);
        if (!same) wtimers_register(j->timers, wend - 1, j->kbuf.buf, j->kbuf.len, wend);
        same_window_ok = true;
    }
    flush(j);
}

static void wj_watermark(WOperator *op, int64_t wm)
{
    WinJoinOp *j = (WinJoinOp *)op;
    advance(j, j->proctime ? wexec_now(op->ctx) : wm);
    wop_emit_watermark(op, wm);
}

static void wj_metrics(WOperator *op, WOpMetrics *m)
{
    WinJoinOp *j = (WinJoinOp *)op;
    wop_metrics_states(m, j->be);
    wop_metrics_value(m, "leftNumLateRecordsDropped", j->side[0].late);
    wop_metrics_value(m, "rightNumLateRecordsDropped", j->side[1].late);
}

static void wj_destroy(WOperator *op)
{
    WinJoinOp *j = (WinJoinOp *)op;
    wstate_backend_free(j->be);
    wtimers_free(j->timers);
    for (int i = 0; i < 2; i++) {
        if (j->side[i].dec) wchunk_free(j->side[i].dec);
        wjoin_input_free(&j->side[i].in);
    }
    wchunk_free(j->joined);
    wchunk_free(j->out);
    free(j->jtypes);
    free(j->sel);
    free(j->rmatched);
    wsb_free(&j->kbuf);
    wsb_free(&j->rbuf);
    wsb_free(&j->skey);
    warena_delete(j->eval_arena);
    warena_delete(j->dec_arena);
    free(j);
}

/* processing-time windows end on the job clock, also between rows */
static void wj_tick(WOperator *op)
{
    WinJoinOp *j = (WinJoinOp *)op;
    if (j->proctime) advance(j, wexec_now(op->ctx));
}

static const WOpOps WJ_OPS = {.process = wj_process, .watermark = wj_watermark, .tick = wj_tick,
                              .destroy = wj_destroy, .metrics = wj_metrics};

WOperator *wop_window_join_new(WExecCtx *ctx, const WWindowJoinSpec *spec)
{
    WinJoinOp *j = wcalloc(1, sizeof *j);
    j->kind = spec->kind;
    j->nkeys = spec->nkeys;
    j->L = spec->left_ncols;
    j->side[0].end_col = spec->left_end_col;
    j->side[1].end_col = spec->right_end_col;
    j->jtypes = wjoin_inputs_init(&j->side[0].in, &j->side[1].in, spec->nkeys, spec->left_ncols,
                                  spec->left_types, spec->left_keys, spec->right_ncols, spec->right_types,
                                  spec->right_keys);
    int nj = spec->left_ncols + spec->right_ncols;
    bool semi_anti = j->kind == WJK_SEMI || j->kind == WJK_ANTI;
    int out_n = spec->out.ncols ? spec->out.ncols : (semi_anti ? j->L : nj);
    const WType **out_t = spec->out.types ? spec->out.types : j->jtypes;
    wop_init(&j->base, &WJ_OPS, ctx, 2, out_n, out_t, spec->out.names);
    j->residual = spec->residual;
    j->proctime = spec->proctime;
    j->progress = INT64_MIN;
    j->be = wexec_new_backend(ctx, j->base.name ? j->base.name : "WindowJoin");
    wstate_set_namespace_bytes(j->be, 8);      /* state keys end with the window end */
    j->side[0].st = wstate_register(j->be, "left-records", WSTATE_LIST, 0);
    j->side[1].st = wstate_register(j->be, "right-records", WSTATE_LIST, 0);
    j->timers = wexec_new_timers(ctx, "WindowJoin");
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    j->joined = wchunk_new(nj, j->jtypes, cap);
    j->out = wchunk_new(out_n, out_t, cap);
    j->sel = wmalloc((size_t)cap);
    wsb_init(&j->kbuf);
    wsb_init(&j->rbuf);
    wsb_init(&j->skey);
    j->eval_arena = warena_new(0);
    j->dec_arena = warena_new(0);
    if (spec->left_end_col < 0 || spec->left_end_col >= spec->left_ncols ||
        spec->right_end_col < 0 || spec->right_end_col >= spec->right_ncols)
        werr_set(ctx->err, WEXC_TABLE, "WindowJoin: window_end column index out of range");
    return &j->base;
}
