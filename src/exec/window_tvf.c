/*
 * window_tvf.c — the WindowTableFunction operator: TABLE(TUMBLE/HOP/CUMULATE(...)) as Flink's
 * AlignedWindowTableFunctionOperator runs it. Stateless and per record: each input row is
 * emitted once per window it belongs to (HOP: latest window first; CUMULATE: growing ends) with
 * window_start, window_end (TIMESTAMP(3), wall clock of the session zone for TIMESTAMP_LTZ time
 * attributes) and window_time (epoch instant of window_end - 1 ms) appended; the row kind is kept.
 * As in Flink, rows are not dropped for lateness here (the downstream window operators do that);
 * rows with a NULL rowtime are dropped and counted (numNullRowTimeRecordsDropped). Processing-time
 * windows take the row's time from the job clock. SESSION goes to window_session.c (it needs
 * state: Flink's UnalignedWindowTableFunctionOperator).
 * May call exec/operator, exec/window_util, exec/window_session, types/, common/.
 */
#include "windowed.h"
#include "op_rows.h"
#include "window_util.h"
#include "window_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct WindowTvfOp {
    WOperator base;
    int in_ncols;
    WWindowDef win;
    WWinShift shift;
    int max_windows;
    int64_t *starts, *ends;
    WChunk *out;
    const WType **out_types;
    int64_t null_time_dropped;
} WindowTvfOp;

static void tvf_process(WOperator *op, int input, const WChunk *in)
{
    WindowTvfOp *t = (WindowTvfOp *)op;
    (void)input;
    const WVector *tv = t->win.proctime ? NULL : &in->cols[t->win.time_col];
    int64_t now = t->win.proctime ? wexec_now(op->ctx) : 0;
    int nin = t->in_ncols;
    for (int r = 0; r < in->nrows; r++) {
        int64_t ts;
        if (tv) {
            if (tv->nulls[r]) {
                t->null_time_dropped++;
                continue;
            }
            ts = tv->data[r].ts.ms;
        } else {
            ts = now;
        }
        ts = wwin_to_shifted(&t->shift, ts);
        int n = wwin_assign(&t->win, ts, t->starts, t->ends, t->max_windows);
        if (n > t->max_windows) n = t->max_windows;
        for (int w = 0; w < n; w++) {
            int o = wop_out_copy_row(&t->base, t->out, (WRowKind)in->kinds[r], in, r, nin);
            t->out->cols[nin].data[o].ts = (WTimestamp){t->starts[w], 0};
            t->out->cols[nin + 1].data[o].ts = (WTimestamp){t->ends[w], 0};
            t->out->cols[nin + 2].data[o].ts = (WTimestamp){wwin_to_epoch(&t->shift, t->ends[w] - 1), 0};
            t->out->cols[nin].nulls[o] = 0;
            t->out->cols[nin + 1].nulls[o] = 0;
            t->out->cols[nin + 2].nulls[o] = 0;
        }
    }
    if (t->out->nrows) wop_emit(op, t->out);
    wchunk_reset(t->out);
}

static void tvf_metrics(WOperator *op, WOpMetrics *m)
{
    WindowTvfOp *t = (WindowTvfOp *)op;
    wop_metrics_value(m, "numNullRowTimeRecordsDropped", t->null_time_dropped);
}

static void tvf_destroy(WOperator *op)
{
    WindowTvfOp *t = (WindowTvfOp *)op;
    wchunk_free(t->out);
    free(t->starts);
    free(t->ends);
    free(t->out_types);
    free(t);
}

static const WOpOps TVF_OPS = {.process = tvf_process, .destroy = tvf_destroy,
                               .metrics = tvf_metrics};

WOperator *wop_window_tvf_new(WExecCtx *ctx, const WWindowTvfSpec *spec)
{
    if (spec->win.kind == WWIN_SESSION) return wop_session_tvf_new(ctx, spec);
    int nout = spec->in_ncols + 3;
    if (!wwin_validate(&spec->win, ctx->err)) return NULL;
    if (spec->out.ncols != nout || !spec->out.types) {
        werr_set(ctx->err, WEXC_TABLE, "WindowTableFunction: output must have %d columns, got %d",
                 nout, spec->out.ncols);
        return NULL;
    }
    if (!spec->win.proctime && (spec->win.time_col < 0 || spec->win.time_col >= spec->in_ncols)) {
        werr_set(ctx->err, WEXC_TABLE, "WindowTableFunction: time column %d out of range",
                 spec->win.time_col);
        return NULL;
    }
    WindowTvfOp *t = wcalloc(1, sizeof *t);
    t->in_ncols = spec->in_ncols;
    t->win = spec->win;
    t->out_types = wmalloc(sizeof *t->out_types * (size_t)nout);
    memcpy(t->out_types, spec->out.types, sizeof *t->out_types * (size_t)nout);
    wop_init(&t->base, &TVF_OPS, ctx, 1, nout, t->out_types, spec->out.names);
    t->base.name = "WindowTableFunction";
    t->shift = wwin_shift_of(&t->win, ctx->start_ms ? ctx->start_ms : wexec_now(ctx));
    t->max_windows = wwin_max_per_row(&t->win);
    t->starts = wmalloc(sizeof *t->starts * (size_t)t->max_windows);
    t->ends = wmalloc(sizeof *t->ends * (size_t)t->max_windows);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    t->out = wchunk_new(nout, t->out_types, cap);
    return &t->base;
}
