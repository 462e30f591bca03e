/*
 * local_window_agg.c — LocalWindowAggregate (Flink LocalSlicingWindowAggOperator with its
 * RecordsWindowBuffer / LocalAggCombiner), see windowed.h.
 *
 * The rows are buffered in a bundle (minibatch.h, whether or not mini-batch is on) that is
 * processed as Flink's RecordsWindowBuffer is flushed: when a watermark at or past the next
 * trigger (the end - 1 of the slice interval after the operator's watermark; the operator's
 * watermark starts at 0, as Flink's field does) fires the smallest slice end buffered, before a
 * checkpoint barrier, at the end of the input, and when it holds LWA_BUFFER_ROWS rows (Flink: when
 * its managed memory is full). Which rows share a partial accumulator then matches Flink's, so a
 * DOUBLE SUM merged from partials adds in Flink's order (found by tests/flink/differential, seed 26
 * query 133: a HOP window's 0.1 x 6 is 0.4 + 0.2 = 0.6000000000000001 in Flink). Processing-time
 * windows and attached windows (rows that carry their window from a window TVF) are not
 * buffered: for a HOP TVF's rows Flink 2.3 was measured to combine across the watermark where
 * this rule would not (not understood yet; docs/user-guide.md). A processed bundle is one chunk: every row is assigned its slice end (Flink's SliceAssigner:
 * TUMBLE the window end, HOP the end of its slide, CUMULATE the end of its step, in the session
 * zone for TIMESTAMP_LTZ attributes; an attached window's own window_end), rows are grouped by
 * (keys, slice end) in order of first appearance, and the local combiner (partial_agg.h)
 * accumulates each group's rows into fresh accumulators and, before process() returns, emits one
 * +I row per group with the keys, the partial accumulators (plan/agg_rules.h) and the slice end
 * to the exchange. Flink's
 * local operator flushes at the latest before a checkpoint barrier.
 * Nothing is dropped here: lateness is the global aggregate's decision (as in Flink). DISTINCT
 * value maps live in a keyed-state backend only while the chunk is processed (state key: the
 * group's key bytes ++ slice end) and are cleared when the group's row is written; the operator
 * keeps no state across calls.
 * May call exec/operator.h, exec/partial_agg.h, exec/accumulators.h, exec/window_util.h,
 * plan/agg_rules.h, state/, types/, common/.
 */
#include "windowed.h"
#include "partial_agg.h"
#include "window_util.h"
#include "../types/row.h"
#include "../common/hash.h"
#include "minibatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWTIME_NULL_MSG \
    "RowTime field should not be null, please convert it to a non-null long value."

typedef struct LocalWindowAgg {
    WOperator base;
    WLocalCombiner c;               /* keys, accumulators, per-call groups (partial_agg.h); a
                                       group's key: key bytes ++ slice end */
    WWindowDef win;
    WWinShift shift;
    /* the buffer's flush rule (lwa_ends_on_watermark) */
    int64_t interval_ms;            /* the slice end interval: TUMBLE size, HOP slide, CUMULATE step */
    int64_t current_wm;             /* the operator's watermark (0 before the first positive one) */
    int64_t next_trigger;
} LocalWindowAgg;

/* The most rows the buffer holds before it is processed. */
#define LWA_BUFFER_ROWS 65536

/* The slice end of row r, false with err set for a NULL time attribute / window end. */
static bool slice_end_of(LocalWindowAgg *g, const WChunk *in, int r, int64_t *end, WError *err)
{
    if (g->win.attached) {
        const WVector *ev = &in->cols[g->win.end_col];
        if (ev->nulls[r]) {
            werr_set(err, "java.lang.RuntimeException",
                     "LocalWindowAggregate received a row whose window_end is null");
            return false;
        }
        *end = ev->data[r].ts.ms;
        return true;
    }
    const WVector *tv = &in->cols[g->win.time_col];
    if (tv->nulls[r]) {
        werr_set(err, "java.lang.RuntimeException", ROWTIME_NULL_MSG);
        return false;
    }
    *end = wwin_slice_end(&g->win, wwin_to_shifted(&g->shift, tv->data[r].ts.ms));
    return true;
}

/* Groups rows by (key bytes, slice end); false with err set on a bad row. */
static bool group_rows(LocalWindowAgg *g, const WChunk *in, WError *err)
{
    WLocalCombiner *c = &g->c;
    for (int r = 0; r < in->nrows; r++) {
        int64_t se;
        if (!slice_end_of(g, in, r, &se, err)) return false;
        wrow_encode_chunk(&c->tmp, in, r, c->nkeys, c->keys);
        wsb_appendn(&c->tmp, (const char *)&se, sizeof se);
        bool added;
        int gi = wcg_find_or_add(&c->cg, c->tmp.buf, c->tmp.len,
                                 whash_bytes(c->tmp.buf, c->tmp.len, 0x736c696365ULL), &added);
        if (added) wlc_new_group(c, gi, r)->slice_end = se;
        c->cg.rows[r] = gi;
    }
    return true;
}

static void lwa_process(WOperator *op, int input, const WChunk *in)
{
    LocalWindowAgg *g = (LocalWindowAgg *)op;
    (void)input;
    if (!in->nrows) return;
    wlc_begin(&g->c, op->ctx, in->nrows);
    if (!group_rows(g, in, op->ctx->err)) return;
    if (!wlc_accumulate(&g->c, in, "LocalWindowAggregate", op->ctx->err)) return;
    wlc_emit(&g->c, op, in, g->c.nkeys + g->c.P.ncols);
}

/* TimeWindowUtil.getNextTriggerWatermark (without a daylight-saving zone): the end - 1 of the
   interval after wm. */
static int64_t next_trigger_watermark(int64_t wm, int64_t interval)
{
    if (wm == WWM_MAX) return wm;
    int64_t start = wm - ((wm % interval) + interval) % interval;
    int64_t t = start + interval - 1;
    return t > wm ? t : t + interval;
}

/* LocalSlicingWindowAggOperator.processWatermark + RecordsWindowBuffer.advanceProgress: whether
   watermark wm ends the buffer (bundle: the rows held, NULL when none). */
static bool lwa_ends_on_watermark(WOperator *op, int64_t wm, const WChunk *bundle)
{
    LocalWindowAgg *g = (LocalWindowAgg *)op;
    if (wm <= g->current_wm) return false;
    g->current_wm = wm;
    if (wm < g->next_trigger) return false;
    g->next_trigger = next_trigger_watermark(wm, g->interval_ms);
    if (!bundle) return false;
    int64_t min_end = WWM_MAX;
    WError e;
    werr_clear(&e);
    for (int r = 0; r < bundle->nrows; r++) {
        int64_t se;
        if (!slice_end_of(g, bundle, r, &se, &e)) return true;     /* process() reports the row */
        if (se < min_end) min_end = se;
    }
    return min_end != WWM_MAX && wwin_fired(&g->shift, min_end, wm);
}

static void lwa_metrics(WOperator *op, WOpMetrics *m)
{
    LocalWindowAgg *g = (LocalWindowAgg *)op;
    wop_metrics_value(m, "combinedRecords", g->c.rows_combined);
}

static void lwa_destroy(WOperator *op)
{
    LocalWindowAgg *g = (LocalWindowAgg *)op;
    wlc_free(&g->c);
    free(g);
}

static const WOpOps LWA_OPS = {.process = lwa_process, .destroy = lwa_destroy, .metrics = lwa_metrics};

static bool check_spec(WExecCtx *ctx, const WLocalWindowAggSpec *spec)
{
    if (spec->win.proctime || spec->win.kind == WWIN_SESSION)
        return werr_set(ctx->err, WEXC_TABLE,
                        "LocalWindowAggregate supports row-time TUMBLE, HOP and CUMULATE windows only");
    if (!spec->win.attached && !wwin_validate_slicing(&spec->win, ctx->err)) return false;
    int tc = spec->win.attached ? spec->win.end_col : spec->win.time_col;
    if (tc < 0 || tc >= spec->in_ncols)
        return werr_set(ctx->err, WEXC_TABLE, "LocalWindowAggregate: time column %d out of range", tc);
    return wagg_check_key_cols(ctx->err, "LocalWindowAggregate", "grouping key", spec->keys, spec->nkeys,
                               spec->in_ncols) &&
           wagg_check_partial_calls(ctx->err, "LocalWindowAggregate", spec->aggs, spec->naggs, spec->in_ncols,
                                    true, false);
}

WOperator *wop_local_window_agg_new(WExecCtx *ctx, const WLocalWindowAggSpec *spec)
{
    if (!check_spec(ctx, spec)) return NULL;
    LocalWindowAgg *g = wcalloc(1, sizeof *g);
    warena_init(&g->c.parena, 0);
    WSchema in = {spec->in_ncols, NULL, spec->in_types};
    wagg_window_partial_layout(&g->c.parena, spec->aggs, spec->naggs, &in, spec->win.kind, &g->c.P);
    int nout = spec->nkeys + g->c.P.ncols + 1;
    if (spec->out.ncols != nout || !spec->out.types || spec->out.types[nout - 1]->id != WT_BIGINT) {
        werr_set(ctx->err, WEXC_TABLE, "LocalWindowAggregate: output has %d columns, expected %d ending in a BIGINT",
                 spec->out.ncols, nout);
        warena_free(&g->c.parena);
        free(g);
        return NULL;
    }
    wop_init(&g->base, &LWA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "LocalWindowAggregate";
    g->win = spec->win;
    g->shift = wwin_shift_of(&g->win, ctx->start_ms ? ctx->start_ms : wexec_now(ctx));
    if (!wlc_open(&g->c, ctx, "LocalWindowAggregate", "localWindowAggregate", spec->nkeys, spec->keys, spec->aggs,
                  spec->naggs, spec->in_types, false, &spec->out)) {
        wop_free(&g->base);
        return NULL;
    }
    g->interval_ms = g->win.kind == WWIN_TUMBLE ? g->win.size_ms : g->win.slide_ms;
    if (!g->win.proctime && !g->win.attached && g->interval_ms > 0) {
        wop_minibatch_enable(&g->base, &(WMiniBatchSpec){.mode = WMB_FOLD, .size = LWA_BUFFER_ROWS});
        wop_minibatch_set_gate(&g->base, lwa_ends_on_watermark);
    }
    return &g->base;
}
